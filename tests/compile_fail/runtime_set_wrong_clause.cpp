// expect: acc::set takes only an acc::device_type, acc::device_num\(n\), acc::default_async\(q\) and acc::if_\(b\)
// acc::set (OpenACC `set`) takes device_type, device_num, default_async and if_; an async
// clause is a compute construct's, not a directive's.
#include <acc/parallel.hpp>

void f() { acc::set(acc::device_num(0), acc::async(1)); }
