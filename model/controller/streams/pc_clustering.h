// Lifetime clustering for PCStream (streams.assign=pcstream): program contexts (PCs) as points on the
// log2-lifetime axis, clustered into at most k groups by weighted 1-D k-means. Plain C++, deterministic.
//
// In one dimension a k-means cluster is a run of consecutive points in sorted order, so one Lloyd step is:
// boundaries at the midpoints between neighbouring centroids (a binary search each), then each centroid the
// weighted mean of its run (prefix sums). The first clusters are cut at the k - 1 widest gaps between
// neighbouring values (clearly separated groups start apart); iteration stops when no boundary moves (at most
// 64 steps): a local optimum, exact for well-separated groups. Cost O(P log P) for P points (the sorts).
// With at most k distinct values, each value is its own cluster. Empty clusters are dropped, so fewer than
// k centroids may come back.
#pragma once
#include <cstdint>
#include <vector>

namespace ssdtlm {

struct LifetimePoint {
  double x = 0;  // log2 of the lifetime, in host-written 4 KiB units
  double w = 1;  // weight (> 0): the PC's recent write volume
};

// The cluster centroids, ascending (at most k; none for no points).
std::vector<double> cluster_lifetimes(std::vector<LifetimePoint> points, uint32_t k);

// The index of the centroid nearest x (ties to the lower); centroids ascending and not empty.
uint32_t nearest_centroid(const std::vector<double>& centroids, double x);

}  // namespace ssdtlm
