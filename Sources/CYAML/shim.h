// The libyaml C API (pkg-config yaml-0.1), seen by Swift as the `CYAML` module.
#include <yaml.h>
