// expect: acc::init and acc::shutdown take only an acc::device_type, acc::device_num\(n\) and acc::if_\(b\)
// default_async is a clause of `set` only: OpenACC's `init` has none.
#include <acc/parallel.hpp>

void f() { acc::init(acc::device_type::nvidia, acc::default_async(2)); }
