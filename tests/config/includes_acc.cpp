// Compiled with flags acc cannot work with (tests/CMakeLists.txt): the first error must be acc's
// own #error saying what to change.
#include <acc/parallel.hpp>

int main() { return 0; }
