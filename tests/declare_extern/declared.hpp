// Globals that defines.cpp defines with ACC_DECLARE and uses.cpp uses: OpenACC `declare create`
// of extern variables, shared between source files.
#pragma once
#include <acc/parallel.hpp>

ACC_DECLARE_EXTERN(double, shared_scale);
ACC_DECLARE_ARRAY_EXTERN(int, shared_table, 16);

/// In uses.cpp: y[i] = shared_scale * x[i] + shared_table[i % 16], on the device.
void scale_on_device(acc::array<double> x, acc::array<double> y);
