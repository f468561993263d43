// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

/// A layered (Sugiyama-style) top-to-bottom layout of one small directed graph ("piece"): the
/// graph view lays out every module group as its own piece and composes them (widgets/graphview).
/// No Qt, no Graphviz: the benchmark compares it with `dot` on the same pieces.
namespace AotStudio::Graph::Layout {

struct Size {
    double w = 0;
    double h = 0;
};

struct Point {
    double x = 0;
    double y = 0;
};

/// One graph to lay out: items with their sizes and the edges between them.
struct Piece {
    std::vector<Size> sizes;
    /// Item index pairs (from, to). Self loops and repeats are dropped (see normalizedEdges).
    std::vector<std::pair<int, int>> edges;
    /// Optional, one per item: the topological rank that decides which edges of a cycle point
    /// backwards (an edge from a higher key to a lower key is reversed). Empty: the item index.
    std::vector<double> orderKey;
    /// Optional, one per item: an earlier x centre (NaN when unknown). Seeds the order inside a
    /// layer, so a graph that barely changed keeps its picture.
    std::vector<double> hintX;
};

struct Options {
    double nodeGap = 20; ///< horizontal space between neighbours in a layer
    double layerGap = 34; ///< vertical space between layers
    double dummyWidth = 6; ///< width reserved for an edge passing through a layer
    int sweeps = 8; ///< barycentre sweeps (down and up) of the crossing reduction
    int coordinatePasses = 8; ///< alternating passes of the x assignment
};

/// Layers and the order inside each layer: everything but the coordinates. Reusable when only the
/// item sizes change (a group expanded or collapsed), which keeps the picture's order.
struct Structure {
    int itemCount = 0;
    std::vector<int> layerOf; ///< per vertex: items first, then edge dummies
    std::vector<std::vector<int>> layers; ///< vertex ids, left to right
    std::vector<std::pair<int, int>> edges; ///< normalizedEdges(piece), original direction
    std::vector<std::vector<int>> chains; ///< per edge: vertices from top to bottom
    std::vector<bool> reversed; ///< per edge: drawn upwards (it closed a cycle)
    std::vector<std::vector<int>> up; ///< per vertex: neighbours one layer up
    std::vector<std::vector<int>> down; ///< per vertex: neighbours one layer down
};

struct Result {
    std::vector<Point> pos; ///< top-left corner of every item
    std::vector<std::vector<Point>> paths; ///< per normalized edge, from source to target
    double width = 0;
    double height = 0;
};

/// The piece's edges without self loops, out-of-range ids and repeats, in first-seen order.
std::vector<std::pair<int, int>> normalizedEdges(const Piece &piece);

/// Layering (longest path, sources pulled down next to their first user), edge dummies and the
/// crossing reduction (barycentre sweeps, best order kept).
Structure buildStructure(const Piece &piece, const Options &options = {});
/// Coordinates for a structure: layer heights from the tallest item, x by alternating passes that
/// pull every vertex to the mean of its neighbours under the no-overlap constraint (solved exactly
/// per layer by isotonic regression), edges as polylines through their dummies.
Result assignCoordinates(const Structure &structure, const std::vector<Size> &sizes, const Options &options = {});
/// buildStructure then assignCoordinates.
Result layeredLayout(const Piece &piece, const Options &options = {});

/// Edge crossings of a drawing: proper intersections between segments of different paths
/// (touching at a shared end point does not count). Quadratic; meant for pieces and tests.
std::size_t countCrossings(const Result &result);
/// Crossings between consecutive layers of a structure's order (the quantity the sweeps minimize).
std::size_t countLayerCrossings(const Structure &structure);

} // namespace AotStudio::Graph::Layout
