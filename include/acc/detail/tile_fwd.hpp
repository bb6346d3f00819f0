//! @file Declarations of the tile API's class templates for the detail and backend headers that
//! sit below the public headers defining them (acc/cached_view.hpp, acc/tile_level.hpp,
//! acc/cache.hpp): those use them only inside templates, which acc/tile.hpp instantiates.
#pragma once

#include <acc/detail/header_open.hpp>

#include <cstddef>

namespace acc {

template <class T, std::size_t Rank>
class cached_view;
template <std::size_t Rank, class Index>
class tile_t;
template <class... V>
struct cached_views_t;

}  // namespace acc

#include <acc/detail/header_close.hpp>
