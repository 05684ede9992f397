// A C++ part for the planted-fault plugin (plugin_planted_cxx): every run()
// throws and catches an exception, as C++ kernels do inside their own code.
// Under --sanitize the sanitizer intercepts __cxa_throw; this proves that it
// finds the C++ runtime the plugin brought (spec/plugin-abi.md, section 13).
#include <stdexcept>

extern "C" void planted_throw_and_catch(void);

extern "C" void planted_throw_and_catch(void) {
  try {
    throw std::runtime_error("thrown and caught inside the plugin");
  } catch (const std::exception &) {
  }
}
