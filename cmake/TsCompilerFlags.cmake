# Warnings and sanitizer wiring shared by every TuneScope target.
add_library(ts_warnings INTERFACE)
add_library(ts::warnings ALIAS ts_warnings)
target_compile_options(ts_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor
                                             -Wno-missing-field-initializers
                                             # GCC 12 false positive on std::string concatenation (GCC bug 105329)
                                             -Wno-restrict)

option(TS_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(TS_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  # Debian's GCC drops --as-needed under -fsanitize; without it the CUDA driver stub becomes NEEDED and
  # binaries fail to start on machines without a GPU (dependencies.md, gotcha 5).
  add_link_options(-fsanitize=address,undefined -Wl,--as-needed)
endif()
