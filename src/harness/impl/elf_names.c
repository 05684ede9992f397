/* Names of a shared object's dynamic section: see elf_names.h. */
#include "harness/impl/elf_names.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct elf_file {
  const unsigned char *bytes;
  size_t size;
} elf_file;

/* The n bytes at offset, or NULL when they are not all in the file. */
static const void *at(const elf_file *f, uint64_t offset, uint64_t n) {
  if (offset > f->size || n > f->size - offset)
    return NULL;
  return f->bytes + offset;
}

/* The same for an array of structures, which must also be 8-byte aligned. */
static const void *table_at(const elf_file *f, uint64_t offset, uint64_t n) {
  return offset % 8 == 0 ? at(f, offset, n) : NULL;
}

/* The NUL-terminated string at offset of the string table s, or NULL. */
static const char *string_at(const elf_file *f, const Elf64_Shdr *s, uint64_t offset) {
  const char *table = at(f, s->sh_offset, s->sh_size);
  if (!table || offset >= s->sh_size || !memchr(table + offset, '\0', s->sh_size - offset))
    return NULL;
  return table + offset;
}

/* The section a section's sh_link names (its string table), or NULL. */
static const Elf64_Shdr *linked(const Elf64_Shdr *sections, uint16_t count, const Elf64_Shdr *s) {
  return s->sh_link < count && sections[s->sh_link].sh_type == SHT_STRTAB ? &sections[s->sh_link]
                                                                          : NULL;
}

static void visit_section(const elf_file *f, const Elf64_Shdr *sections, uint16_t count,
                          const Elf64_Shdr *s, const mc_elf_visitor *v) {
  const Elf64_Shdr *strings = linked(sections, count, s);
  if (!strings)
    return;
  if (s->sh_type == SHT_DYNAMIC && v->needed) {
    const Elf64_Dyn *dyn = table_at(f, s->sh_offset, s->sh_size);
    for (size_t i = 0; dyn && i < s->sh_size / sizeof *dyn && dyn[i].d_tag != DT_NULL; i++) {
      const char *name =
          dyn[i].d_tag == DT_NEEDED ? string_at(f, strings, dyn[i].d_un.d_val) : NULL;
      if (name)
        v->needed(name, v->ctx);
    }
  } else if (s->sh_type == SHT_DYNSYM && v->symbol) {
    const Elf64_Sym *sym = table_at(f, s->sh_offset, s->sh_size);
    for (size_t i = 0; sym && i < s->sh_size / sizeof *sym; i++) {
      const char *name = string_at(f, strings, sym[i].st_name);
      if (name && name[0])
        v->symbol(name, v->ctx);
    }
  }
}

static bool visit(const elf_file *f, const mc_elf_visitor *v) {
  const Elf64_Ehdr *h = at(f, 0, sizeof *h);
  if (!h || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 || h->e_ident[EI_CLASS] != ELFCLASS64 ||
      h->e_shentsize != sizeof(Elf64_Shdr))
    return false;
  const Elf64_Shdr *sections = table_at(f, h->e_shoff, (uint64_t)h->e_shnum * sizeof *sections);
  if (!sections)
    return false;
  for (uint16_t i = 0; i < h->e_shnum; i++)
    visit_section(f, sections, h->e_shnum, &sections[i], v);
  return true;
}

bool mc_elf_visit_names(const char *path, const mc_elf_visitor *v) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0)
    return false;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    close(fd);
    return false;
  }
  elf_file f = {NULL, (size_t)st.st_size};
  void *map = mmap(NULL, f.size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return false;
  f.bytes = map;
  bool ok = visit(&f, v);
  munmap(map, f.size);
  return ok;
}
