/* Traceability counts: one pass over the cases, one bit set per property. */
#include "cases/trace.h"

#include <stdlib.h>
#include <string.h>

#include "common/clauses.h"

/* Every type, rank and status has its bit. */
_Static_assert(MC_TYPE_COUNT <= 32, "mc_clause_use.types has 32 bits");
_Static_assert(MC_TENSOR_MAX_RANK < 64, "mc_clause_use.ranks has 64 bits");
_Static_assert(MC_STATUS_COUNT <= 64, "mc_clause_use.errors has 64 bits");

bool mc_trace_init(mc_trace *t) {
  memset(t, 0, sizeof *t);
  t->table = mc_clause_table();
  while (t->table[t->n_clauses].id)
    t->n_clauses++;
  t->uses = calloc((size_t)t->n_clauses, sizeof *t->uses);
  return t->uses != NULL;
}

void mc_trace_free(mc_trace *t) {
  free(t->uses);
  memset(t, 0, sizeof *t);
}

int mc_trace_clause_index(const mc_trace *t, const char *id) {
  for (int i = 0; i < t->n_clauses; i++)
    if (strcmp(t->table[i].id, id) == 0)
      return i;
  return -1;
}

static void count_use(mc_clause_use *use, const mc_case *c) {
  const mc_tensor *data = &c->inputs[0].tensor;
  use->cases++;
  /* The loader accepts only known types, ranks up to MC_TENSOR_MAX_RANK
     and known error names. */
  use->types |= UINT32_C(1) << data->type;
  use->ranks |= UINT64_C(1) << data->rank;
  if (c->expect_error) {
    use->invalid_cases++;
    use->errors |= UINT64_C(1) << c->expected_error;
  }
}

void mc_trace_add_file(mc_trace *t, const mc_case_file *f) {
  for (int k = 0; k < f->n_cases; k++) {
    const mc_case *c = &f->cases[k];
    t->n_cases++;
    for (int j = 0; j < c->n_clauses; j++) {
      int index = mc_trace_clause_index(t, c->clauses[j]);
      if (index < 0)
        t->unknown_citations++;
      else
        count_use(&t->uses[index], c);
    }
  }
}

int mc_trace_add_files(mc_trace *t, const mc_path_list *files, int op, FILE *errors) {
  int load_errors = 0;
  for (int i = 0; i < files->count; i++) {
    mc_case_file f;
    char err[1024];
    if (!mc_case_file_load(files->paths[i], &f, err, sizeof err)) {
      fprintf(errors, "%s\n", err);
      load_errors++;
      continue;
    }
    if (op < 0 || (int)f.op == op)
      mc_trace_add_file(t, &f);
    mc_case_file_free(&f);
  }
  return load_errors;
}
