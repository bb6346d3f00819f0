//! @file Everything in acc: `#include <acc/parallel.hpp>`.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/async.hpp>
#include <acc/atomic.hpp>
#include <acc/clauses.hpp>
#include <acc/data.hpp>
#include <acc/declare.hpp>
#include <acc/devices.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/gang.hpp>
#include <acc/graph.hpp>
#include <acc/loop.hpp>
#include <acc/reduce.hpp>
#include <acc/region.hpp>
#include <acc/runtime.hpp>
#include <acc/scan.hpp>
#include <acc/serial.hpp>
#include <acc/tile.hpp>
#include <acc/update.hpp>

#include <acc/detail/header_close.hpp>
