// Rodinia 3.1 myocyte's input: the data its programs read (data/myocyte/y.txt and params.txt
// of Rodinia 3.1's data package), shared by the port (examples/myocyte) and bench/rodinia's
// input writer, which gives the same values to Rodinia's CUDA program. Plain C++ (no acc).
#pragma once

namespace myocyte {

// The initial state (y.txt: the ECC states in the order of ecc.hpp, then the CaM states of the
// dyad, the SL and the cytosol) and the parameters (params.txt: the pacing cycle length [ms];
// per compartment the CaM, buffer, CaMKII, calcineurin and PP1 totals [uM]). Rodinia starts
// every instance from these.
inline constexpr double initial_state[91] = {
    1.3705539e-3, 9.8714218e-1, 9.9182408e-1, 6.9968275e-6, 1.0006761e0, 2.5800244e-2,
    1.5606144e-2, 4.0110808e-3, 3.1904893e-1, 4.0110456e-3, 9.9463216e-1, 8.4705483e-3,
    6.0394891e-3, 8.8875021e-1, 8.2057663e-7, 1.0271527e-7, 3.5547650e0, 7.7561711e-1,
    9.0782945e-3, 1.1836625e-1, 1.0156121e-2, 2.5328101e-4, 2.0087204e-3, 1.3747360e-1,
    2.2097020e-3, 7.7737983e-3, 1.0124416e-2, 7.5692786e-2, 1.1608535e-1, 1.2509040e0,
    5.6109998e-1, 8.8597621e0, 8.8611627e0, 8.8615763e0, 1.3500000e2, 1.8394727e-4,
    1.0924132e-4, 8.8935135e-5, -8.5719165e1, 4.1071583e-1, 0.0000000e0, 0.0000000e0,
    1.7483040e4, -1.4677756e4, -1.6869784e5, 1.6590486e5, 3.8674011e2, 6.0137654e0,
    2.1665981e-3, 0.0000000e0, 0.0000000e0, 0.0000000e0, 5.2910875e-1, 3.1783490e-2,
    7.1017447e-6, 2.8316127e-9, 2.3444660e-9, 1.3282361e-4, 4.3772286e-3, 1.2450156e-2,
    3.6005070e0, 4.3833441e-2, 5.4727484e-5, 8.6054033e-9, 2.3715335e0, 1.3105350e1,
    2.7224584e-4, 1.1056849e-5, 9.5203944e-6, 1.3418139e-7, 1.4654302e-12, 8.8079626e-9,
    5.6863655e-4, 2.1354933e-6, 5.6653572e-6, 1.3743596e-3, 4.3580316e-2, 3.8789477e-5,
    5.5612103e-10, 4.1446000e0, 1.1342721e0, 1.5613769e-5, 7.7666417e-6, 4.5935002e-8,
    3.0629005e-13, 3.2828882e-18, 2.0356103e-14, 1.2025051e-4, 4.4862898e-7, 1.7078402e-7,
    8.1327361e-7,
};
inline constexpr double initial_parameters[16] = {
    1.000000e3, 4.180000e2, 0.000000e0, 1.200000e2, 3.617508e0, 9.650000e1,
    5.650000e0, 2.420000e1, 9.951600e-2, 3.000000e-3, 5.700000e-1, 5.650000e0,
    2.420000e1, 9.951600e-2, 3.000000e-3, 5.700000e-1,
};

}  // namespace myocyte
