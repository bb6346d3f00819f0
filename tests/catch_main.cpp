// The one Catch2 main of every test executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
