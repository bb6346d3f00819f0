// Arrays with static storage, in a unit that includes only <acc/array.hpp> and is linked first:
// nothing here uses the runtime before main, so these are constructed before its state and
// destroyed after it would be (were it ever destroyed).
#include <acc/array.hpp>

acc::array<double> global_field("global_field", 1000);

acc::array<int>& function_static() {
  static acc::array<int> counts("counts", 17);
  return counts;
}
