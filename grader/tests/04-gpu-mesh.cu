// Grader tests for lesson 04 (gpu mesh: a float64 distance, three ways to feed one kernel, and
// what the copies cost).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gpu_mesh.h"
#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/results.h"
#include "grader/yardstick.h"
#include "mesh_cpu.h"
#include "stepwise/cuda_error.h"
#include "stepwise/host_timer.h"

namespace {

using grader::Output;

// ---- What ran ----------------------------------------------------------------------------------

const std::string kStep1 = "step 1 (distances)";
const std::string kStep2 = "step 2 (distances_from_four_arrays)";
const std::string kStep3Device = "step 3 (distances_to_point)";
const std::string kStep3 = "step 3 (distances_from_two_arrays)";
const std::string kStep4Device = "step 4 (mesh_distances)";
const std::string kStep4 = "step 4 (distances_on_device_mesh)";

// Functions on device pointers (the header's promise): kernels of the student's, on the default
// stream, no wait for the GPU, no copy to or from the host. For mesh_distances that is the
// lesson's point: the mesh is built by a kernel, nothing of it comes from the host.
grader::Rules device_rules(const std::string& step) { return grader::Rules::kernel_step(step); }

std::string megabytes(double bytes) { return std::to_string(bytes / 1e6).substr(0, 6) + " MB"; }

// Functions on host pointers: kernels of the student's, everything on the default stream and
// finished when the call returns, and exactly the copies the version makes: `copies_in` copies
// of n doubles to the GPU (none for the device mesh: its mesh is built by a kernel) and one copy
// of the n distances back.
grader::Rules host_rules(const std::string& step, std::size_t copies_in, std::size_t n) {
  grader::Rules rules(step);
  rules.own_kernels().on_stream(nullptr).done_when_returned();
  rules.also([copies_in, n](const grader::Trace& t) -> testing::AssertionResult {
    std::size_t in = 0, out = 0;
    double in_bytes = 0, out_bytes = 0;
    for (const grader::TracedCopy& c : t.copies) {
      if (c.direction == "host to device") {
        ++in;
        in_bytes += c.bytes;
      } else if (c.direction == "device to host") {
        ++out;
        out_bytes += c.bytes;
      }
    }
    // Exact byte counts: each array is n doubles of 8 bytes, copied once (integers, no slack).
    const double array = 8.0 * n;
    if (copies_in == 0 && in > 0)
      return testing::AssertionFailure() << "copied " << megabytes(in_bytes) << " host to device in " << in
                                         << " copies: the mesh is to be built by a kernel on the GPU from the mesh's "
                                         << "six numbers, and nothing needs to go to the GPU";
    if (in != copies_in || in_bytes != copies_in * array)
      return testing::AssertionFailure() << "made " << in << " copies to the GPU, " << megabytes(in_bytes)
                                         << " in all: this version copies " << copies_in << " arrays of "
                                         << megabytes(array) << ", one copy each";
    if (out != 1 || out_bytes != array)
      return testing::AssertionFailure() << "made " << out << " copies back to the host, " << megabytes(out_bytes)
                                         << " in all: this version copies the " << megabytes(array)
                                         << " of distances back once";
    return testing::AssertionSuccess();
  });
  return rules;
}

// One call of a host version traced: its rules, and each time it reports against the traced
// time of what it names in the same call (grader::reported_time_matches: a slow launch under CUPTI widens
// the window the events may span as much as it lengthens what they time).
void expect_times_match_trace(const std::function<MeshTimings()>& run, const grader::Rules& rules) {
  MeshTimings reported;
  const grader::Trace ran = grader::expect_ran([&] { reported = run(); }, rules);
  if (!ran.available) return;
  std::vector<const grader::TracedCopy*> in, out;
  for (const grader::TracedCopy& c : ran.copies) {
    if (c.direction == "host to device") in.push_back(&c);
    if (c.direction == "device to host") out.push_back(&c);
  }
  std::sort(in.begin(), in.end(), [](auto a, auto b) { return a->start < b->start; });
  if (in.size() == reported.copy_in_ms.size())  // else the rules said what is wrong
    for (std::size_t i = 0; i < in.size(); ++i)
      EXPECT_TRUE(grader::reported_time_matches(reported.copy_in_ms[i], ran, in[i]->start, in[i]->end,
                                    "your copy_in_ms[" + std::to_string(i) + "] (copy " + std::to_string(i + 1) +
                                        " to the GPU)"));
  if (out.size() == 1)
    EXPECT_TRUE(grader::reported_time_matches(reported.copy_out_ms, ran, out, "your copy_out_ms (the copy of the distances back)"));
  std::vector<const grader::TracedKernel*> kernels;
  for (const grader::TracedKernel& k : ran.kernels) kernels.push_back(&k);
  EXPECT_TRUE(grader::reported_time_matches(reported.kernel_ms, ran, kernels, "your kernel_ms (the distance kernel)"));
}

// ---- What a right float64 distance may differ by ----------------------------------------------
//
// Each distance has its own bound, derived from the float64 arithmetic of step 1 (u = 2^-53, one
// rounding; CUDA's double sin, cos, sinpi, cospi and atan2 within 2 ulp, at most 4u of the value;
// sqrt and / correctly rounded). With theta = d / 2R (half the central angle) and a = sin^2 theta:
//   - the sines' arguments (a difference, a scale by pi / 180 or / 360, a halving) carry 3u of
//     themselves, t up to pi for the longitudes: the sines 3u |t cos t| + 4u |s|, s^2 15u where
//     |t| <= pi / 2; the cosines' arguments (up to pi / 2) 2u, so the cosines pi u + 4u c; three
//     products and the sum: da <= 27u a + pi u (c1 + c2) s2^2 + 6u c1 c2 |s2 t2 cos t2|;
//   - theta = asin(sqrt(a)): da moves it to asin(sqrt(a +- da)) (within [0, pi / 2]), about
//     da / sin(2 theta); near the antipode, where 1 - a vanishes, the haversine formula itself
//     amplifies da: a pair 1 km from antipodal may be off by 1e-8 km, one 10 m from it by 1e-6 km;
//   - sqrt(a), 1 - a and sqrt(1 - a) put 3u into atan2's arguments: 3u sin theta cos theta; atan2
//     itself 4u theta; the products by 2 and by R 2u of d, the reference's rounding to double u.
// The long-double reference's own rounding is added to u. Mesh points the kernel computes by the
// mesh formulas in another order may differ by 2 ulp per coordinate, which moves d by at most
// R pi / 180 per degree: `coordinate_ulps` 2 for them. The bound is a few parts in 10^15 of most
// distances, 1e-13 to 1e-12 near the poles and antipodes. The reference solution, simulated on the
// CPU with each function result moved by up to 2 ulp (2M random pairs, and pairs near the poles,
// the antipodes and each other; the seed's mesh and 11 random ones), stays within 0.5 of it.
// Float arithmetic misses by 1e-7 of the distance and the seed's 7-digit constants by 1e-7; a pi
// of 12 digits (3.14159265359, 6.6e-13 too large) fails 96% of random pairs and 17% of the seed
// mesh's points, which the old bound (1e-9 km + 1e-11 of the distance) all passed.
double distance_tolerance_km(double lat1, double lon1, double lat2, double lon2, double km, int coordinate_ulps = 0) {
  constexpr double kPi = 3.14159265358979323846;
  const double u = 0x1p-53 + std::numeric_limits<long double>::epsilon() / 2;
  const double theta = km / (2 * kEarthRadiusKm);
  const double sin_theta = std::sin(theta), cos_theta = std::cos(theta);
  const double a = sin_theta * sin_theta, one_minus_a = cos_theta * cos_theta;
  const double c1 = std::fabs(std::cos(lat1 * kRadiansPerDegree)), c2 = std::fabs(std::cos(lat2 * kRadiansPerDegree));
  const double t2 = (lon2 - lon1) * kRadiansPerDegree / 2, s2 = std::sin(t2);
  const double da = 27 * u * a + kPi * u * (c1 + c2) * s2 * s2 + 6 * u * c1 * c2 * std::fabs(s2 * t2 * std::cos(t2));
  // asin(sqrt(x)) - asin(sqrt(a)) = asin((x - a) / (sqrt(x (1 - a)) + sqrt(a (1 - x)))): no cancellation.
  const auto moved = [&](double x, double one_minus_x, double gap) {
    return gap == 0 ? 0.0 : std::asin(std::min(1.0, gap / (std::sqrt(x * one_minus_a) + std::sqrt(a * one_minus_x))));
  };
  const double up = da < one_minus_a ? moved(a + da, one_minus_a - da, da) : moved(1, 0, one_minus_a);
  const double down = da < a ? moved(a - da, one_minus_a + da, da) : moved(0, 1, a);
  double tolerance =
      2 * kEarthRadiusKm * (std::max(up, down) + 3 * u * sin_theta * cos_theta + 4 * u * theta) + 3 * u * km;
  if (coordinate_ulps > 0) {
    const auto ulp = [](double x) { return std::nextafter(std::fabs(x), INFINITY) - std::fabs(x); };
    tolerance += kEarthRadiusKm * kRadiansPerDegree * coordinate_ulps * (ulp(lat1) + ulp(lon1) + ulp(lat2) + ulp(lon2));
  }
  return tolerance;
}

// What the step must give: the reference distances and each one's bound.
struct Expected {
  std::vector<double> km, tolerance;
  void add(double lat1, double lon1, double lat2, double lon2, int coordinate_ulps = 0) {
    km.push_back(0);
    tolerance.push_back(0);
    set(km.size() - 1, {lat1, lon1, lat2, lon2}, coordinate_ulps);
  }
  // Those of n pairs, pair(i) giving the i-th as {lat1, lon1, lat2, lon2}, on the idle cores: the
  // long-double reference takes about 0.7 us a pair on one CPU thread, 3 s for 4M pairs.
  static Expected of(std::size_t n, const std::function<std::array<double, 4>(std::size_t)>& pair,
                     int coordinate_ulps = 0) {
    Expected e;
    e.km.resize(n);
    e.tolerance.resize(n);
    grader::in_parallel(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) e.set(i, pair(i), coordinate_ulps);
    });
    return e;
  }

 private:
  void set(std::size_t i, const std::array<double, 4>& p, int coordinate_ulps) {
    km[i] = static_cast<double>(reference_distance_km(p[0], p[1], p[2], p[3]));
    tolerance[i] = distance_tolerance_km(p[0], p[1], p[2], p[3], km[i], coordinate_ulps);
  }
};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// Compares distances with the reference, each within its own bound. The message is grader::matches'
// ("N of M values differ from the CPU reference (...). First mismatches: ..."), each mismatch with
// its error and bound; `where`, when given, holds the index each value stands for (a sample).
testing::AssertionResult distances_match(const Expected& expected, const std::vector<double>& got,
                                         const std::vector<std::size_t>* where = nullptr) {
  if (got.size() != expected.km.size())
    return testing::AssertionFailure() << "the reference has " << expected.km.size() << " values, the output " << got.size();
  const std::string required = "|error| <= each distance's float64 rounding bound, a few parts in 10^15 of most distances";
  grader::MismatchReport report;
  double worst = 0, worst_error = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool unwritten = grader::is_poison(got[i]);
    const double error = std::fabs(got[i] - expected.km[i]);
    if (!unwritten && error <= expected.tolerance[i]) {
      if (error / expected.tolerance[i] > worst) {
        worst = error / expected.tolerance[i];
        worst_error = error;
      }
      continue;
    }
    if (report.add(unwritten))
      report.show("[" + std::to_string(where != nullptr ? (*where)[i] : i) + "]", number(expected.km[i]),
                  number(got[i]) + (unwritten || std::isnan(got[i]) ? std::string()
                                                                    : " (|error| " + number(error) + " km, bound " +
                                                                          number(expected.tolerance[i]) + " km)"),
                  unwritten);
  }
  if (report.count() == 0) {
    grader::note_figure(worst, "max |error| " + number(worst_error) + " km, " + number(worst) + " of its bound", required);
    return testing::AssertionSuccess();
  }
  grader::note_figure(INFINITY, std::to_string(report.count()) + " of " + std::to_string(got.size()) + " wrong", required);
  return report.failure(got.size(), required);
}

// The same for a device output, which must also be intact past its end.
testing::AssertionResult distances_match(const Expected& expected, const Output<double>& out) {
  const testing::AssertionResult guard = out.guard_intact();
  if (!guard) return guard;
  return distances_match(expected, out.to_host());
}

// The reference distances from every mesh point to `to`, with their bounds (mesh points computed
// on the device: 2 ulp per coordinate).
Expected expected_mesh(const Mesh& m, Point to) {
  return Expected::of(mesh_size(m), [&](std::size_t i) {
    return std::array<double, 4>{mesh_lat(m, static_cast<int>(i % m.nx)), mesh_lon(m, static_cast<int>(i / m.nx)), to.lat, to.lon};
  }, 2);
}

// A whole mesh's distances, from a host copy of the output. Under compute-sanitizer, which finds a
// memory error whatever values are compared after it, 4096 random points of a larger mesh stand for
// the long-double reference of all of them (0.7 us a point on one CPU thread: 0.7 s a 1000 x 1000 mesh).
testing::AssertionResult mesh_matches(const Mesh& m, Point to, const std::vector<double>& out) {
  if (!grader::under_sanitizer() || out.size() <= 4096) return distances_match(expected_mesh(m, to), out);
  const grader::Sample sample(out.size(), 4096);
  Expected expected;
  std::vector<double> got;
  for (std::size_t i : sample.indices()) {
    expected.add(mesh_lat(m, static_cast<int>(i % m.nx)), mesh_lon(m, static_cast<int>(i / m.nx)), to.lat, to.lon, 2);
    got.push_back(out[i]);
  }
  return distances_match(expected, got, &sample.indices());
}

// Random places anywhere on the Earth, and the reference distances between them.
struct Pairs {
  std::vector<double> lat, lon, to_lat, to_lon;
  Expected km;
};

Pairs random_pairs(int n) {
  Pairs p{grader::random_doubles(n, -90, 90), grader::random_doubles(n, -180, 180),
          grader::random_doubles(n, -90, 90), grader::random_doubles(n, -180, 180), {}};
  p.km = Expected::of(n, [&](std::size_t i) { return std::array<double, 4>{p.lat[i], p.lon[i], p.to_lat[i], p.to_lon[i]}; });
  return p;
}

// The same pairs with one fixed point for all (the seed's X2 and Y2 arrays).
Pairs random_pairs_to(int n, Point to) {
  Pairs p{grader::random_doubles(n, -90, 90), grader::random_doubles(n, -180, 180),
          std::vector<double>(n, to.lat), std::vector<double>(n, to.lon), {}};
  p.km = Expected::of(n, [&](std::size_t i) { return std::array<double, 4>{p.lat[i], p.lon[i], to.lat, to.lon}; });
  return p;
}

// The grader's standard sizes, the largest capped at 4M points: the long-double reference
// takes about 0.7 us per point on one CPU thread.
std::vector<int> test_sizes(std::size_t bytes_per_point) {
  std::vector<int> sizes = grader::standard_sizes(bytes_per_point);
  for (int& n : sizes) n = std::min(n, 1 << 22);
  return sizes;
}

Point random_point() {
  const std::vector<double> lat = grader::random_doubles(1, -90, 90), lon = grader::random_doubles(1, -180, 180);
  return {lat[0], lon[0]};
}

std::string describe(Point p) { return "(" + std::to_string(p.lat) + ", " + std::to_string(p.lon) + ")"; }

std::string describe(const Mesh& m) {
  return std::to_string(m.nx) + " x " + std::to_string(m.ny) + " mesh of lat [" + std::to_string(m.lat_first) +
         ", " + std::to_string(m.lat_last) + "], lon [" + std::to_string(m.lon_first) + ", " +
         std::to_string(m.lon_last) + "]";
}

// The seed's mesh, [29, 31] x [99, 101], and its fixed point (30, 101).
const Mesh kSeedMesh{};
const Point kSeedPoint{30, 101};

// A mesh of the given size with random bounds: latitudes within +-80 degrees, longitudes
// anywhere, either way round (last below first too).
Mesh random_mesh(int nx, int ny) {
  const std::vector<double> lat = grader::random_doubles(2, -80, 80), lon = grader::random_doubles(2, -180, 180);
  return {lat[0], lat[1], lon[0], lon[1], nx, ny};
}

// ---- Step 1: the distance of four device arrays -------------------------------------------

TEST(Distances, KnownDistances) {
  constexpr double kPi = 3.14159265358979323846;
  struct Known {
    Point from, to;
    double km;
    const char* why;
  };
  const std::vector<Known> known = {
      {{30, 101}, {30, 101}, 0, "the same place: 0 (is a = 0 giving atan2(0, 1) = 0?)"},
      {{0, 0}, {0, 90}, kEarthRadiusKm * kPi / 2, "a quarter of the equator: R * pi / 2 (are degrees turned into radians?)"},
      {{90, 0}, {-90, 0}, kEarthRadiusKm * kPi, "pole to pole: R * pi (is it 2 * R * atan2(sqrt(a), sqrt(1 - a))?)"},
      {{0, 0}, {0, 180}, kEarthRadiusKm * kPi, "half the equator: R * pi"},
      {{0, -179.5}, {0, 179.5}, kEarthRadiusKm * kPi / 180, "one degree across the date line: R * pi / 180"},
      {{30, 101}, {31, 101}, kEarthRadiusKm * kPi / 180, "one degree of latitude: R * pi / 180"},
      {{60, 10}, {60, 11}, 2 * kEarthRadiusKm * std::asin(0.5 * std::sin(kPi / 360)),
       "one degree of longitude at 60 degrees north: about half a degree of the equator (cos(lat))"},
  };
  Pairs p;
  for (const Known& k : known) {
    p.lat.push_back(k.from.lat);
    p.lon.push_back(k.from.lon);
    p.to_lat.push_back(k.to.lat);
    p.to_lon.push_back(k.to.lon);
  }
  const int n = static_cast<int>(known.size());
  auto d_lat = grader::device(p.lat), d_lon = grader::device(p.lon);
  auto d_to_lat = grader::device(p.to_lat), d_to_lon = grader::device(p.to_lon);
  Output<double> out(n);
  distances(d_lat.data(), d_lon.data(), d_to_lat.data(), d_to_lon.data(), out.data(), n);
  ASSERT_TRUE(out.guard_intact());
  const std::vector<double> got = out.to_host();
  for (int i = 0; i < n; ++i)
    // The known distances are computed in double here (pi, R and a product: 4u of each more).
    EXPECT_NEAR(got[i], known[i].km,
                distance_tolerance_km(known[i].from.lat, known[i].from.lon, known[i].to.lat, known[i].to.lon, known[i].km) +
                    4 * 0x1p-53 * known[i].km)
        << "from " << describe(known[i].from) << " to " << describe(known[i].to) << ": " << known[i].why;
}

TEST(Distances, RandomPointsMatchReference) {
  const std::vector<int> sizes = test_sizes(5 * sizeof(double));
  for (int n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Pairs p = random_pairs(n);
    auto d_lat = grader::device(p.lat), d_lon = grader::device(p.lon);
    auto d_to_lat = grader::device(p.to_lat), d_to_lon = grader::device(p.to_lon);
    Output<double> out(n);
    const auto call = [&] { distances(d_lat.data(), d_lon.data(), d_to_lat.data(), d_to_lon.data(), out.data(), n); };
    if (n == sizes.back())
      grader::expect_ran(call, device_rules(kStep1));
    else
      call();
    EXPECT_TRUE(distances_match(p.km, out));
  }
}

// ---- Timings, for the host versions of steps 2 to 4 ----------------------------------------

// Checks that `t` reports `copies_in` copies of n doubles each, a kernel and a copy back, each
// taking time, and adding up to no more than the call's own time.
void expect_timings(const MeshTimings& t, std::size_t copies_in, int n, double call_ms) {
  // Floors: n doubles (8 bytes each) at 1.25 x the host link's speed in that direction, as the
  // grader's own pinned copies measure it in this run (grader::fastest_host_copy_ms derives it):
  // no copy, pinned or pageable, is faster. The smallest fault it admits: a copy's time that
  // misses a fifth of a pinned copy's; these copies are pageable, about 5 x slower than pinned on
  // the H100 (8.9 GB/s, README, against 47 GB/s pinned), so there a time that misses up to 5/6 of
  // the copy passes here and is caught by the comparison with the trace. (It replaces a fixed 1000 GB/s, 1/18 of a pinned copy's time.)
  const double bytes = 8.0 * n;
  const double in_floor_ms = grader::fastest_host_copy_ms(bytes, cudaMemcpyHostToDevice),
               out_floor_ms = grader::fastest_host_copy_ms(bytes, cudaMemcpyDeviceToHost);
  ASSERT_EQ(t.copy_in_ms.size(), copies_in)
      << "this version copies " << copies_in << " arrays to the GPU: mark each copy with Part::copy_in (timed_copy_in does)";
  for (std::size_t i = 0; i < copies_in; ++i)
    EXPECT_GE(t.copy_in_ms[i], in_floor_ms)
        << "copy " << i + 1 << " of " << bytes / 1e6 << " MB took " << t.copy_in_ms[i] << " ms, faster than the link "
        << "moves it (" << in_floor_ms << " ms at 1.25 x the grader's own pinned copies): is its mark right after the "
        << "copy, and only there?";
  // Greater than 0: any launch takes microseconds, above the events' resolution (about 0.5 us).
  EXPECT_GT(t.kernel_ms, 0.0f) << "kernel_ms was not measured: mark the kernel with timer.done(Part::kernel)";
  EXPECT_GE(t.copy_out_ms, out_floor_ms)
      << "copy_out_ms says the copy of " << bytes / 1e6 << " MB back took " << t.copy_out_ms << " ms, faster than the "
      << "link moves it (" << out_floor_ms << " ms at 1.25 x the grader's own pinned copies): copy back with timed_copy_out";
  EXPECT_TRUE(grader::parts_fit_in_whole(t.total_ms(), call_ms, "the parts"));
}

// Calls `run` once to load the kernels, then once more, timed on the host clock.
template <typename Run>
MeshTimings timed_call(Run run, double& call_ms) {
  run();
  MeshTimings t;
  call_ms = stepwise::host_ms([&] { t = run(); });
  return t;
}

// ---- Step 2: four host arrays --------------------------------------------------------------

TEST(FourArrays, MatchesReference) {
  for (int n : {0, 1, 33, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Pairs p = random_pairs(n);
    std::vector<double> out = grader::poisoned_host<double>(n);
    distances_from_four_arrays(p.lat.data(), p.lon.data(), p.to_lat.data(), p.to_lon.data(), out.data(), n);
    EXPECT_TRUE(distances_match(p.km, out));
  }
}

TEST(FourArrays, SeedMeshMatchesReference) {
  SCOPED_TRACE(describe(kSeedMesh) + " to " + describe(kSeedPoint));
  const MeshArrays mesh = mesh_on_host(kSeedMesh);
  const std::size_t n = mesh_size(kSeedMesh);
  const std::vector<double> to_lat(n, kSeedPoint.lat), to_lon(n, kSeedPoint.lon);
  std::vector<double> out = grader::poisoned_host<double>(n);
  distances_from_four_arrays(mesh.lat.data(), mesh.lon.data(), to_lat.data(), to_lon.data(), out.data(),
                             static_cast<int>(n));
  EXPECT_TRUE(mesh_matches(kSeedMesh, kSeedPoint, out));
}

TEST(FourArrays, TimesEachCopy) {
  grader::hold_the_gpu_alone();  // it compares times
  // Under compute-sanitizer: it times calls, which the tool slows, and its 4M-point long-double
  // reference is 3 s of CPU time; MatchesReference runs the same function there (n to 100017).
  if (grader::under_sanitizer()) GTEST_SKIP() << "times calls, which the sanitizer slows";
  const int n = 1 << 22;
  const Pairs p = random_pairs(n);
  std::vector<double> out = grader::poisoned_host<double>(n);
  double call_ms = 0;
  const MeshTimings t = timed_call(
      [&] { return distances_from_four_arrays(p.lat.data(), p.lon.data(), p.to_lat.data(), p.to_lon.data(), out.data(), n); },
      call_ms);
  EXPECT_TRUE(distances_match(p.km, out));
  expect_timings(t, 4, n, call_ms);
  expect_times_match_trace(
      [&] { return distances_from_four_arrays(p.lat.data(), p.lon.data(), p.to_lat.data(), p.to_lon.data(), out.data(), n); },
      host_rules(kStep2, 4, n));
  EXPECT_TRUE(distances_match(p.km, out)) << "the traced call";
}

// ---- Step 3: two host arrays and a fixed point passed by value -----------------------------

TEST(TwoArrays, DeviceVersionMatchesReference) {
  const std::vector<int> sizes = test_sizes(3 * sizeof(double));
  for (int n : sizes) {
    const Point to = random_point();
    SCOPED_TRACE("n = " + std::to_string(n) + ", to " + describe(to));
    const Pairs p = random_pairs_to(n, to);
    auto d_lat = grader::device(p.lat), d_lon = grader::device(p.lon);
    Output<double> out(n);
    const auto call = [&] { distances_to_point(d_lat.data(), d_lon.data(), to, out.data(), n); };
    if (n == sizes.back())
      grader::expect_ran(call, device_rules(kStep3Device));
    else
      call();
    EXPECT_TRUE(distances_match(p.km, out));
  }
}

TEST(TwoArrays, MatchesReference) {
  for (int n : {0, 1, 33, 100017}) {
    const Point to = random_point();
    SCOPED_TRACE("n = " + std::to_string(n) + ", to " + describe(to));
    const Pairs p = random_pairs_to(n, to);
    std::vector<double> out = grader::poisoned_host<double>(n);
    distances_from_two_arrays(p.lat.data(), p.lon.data(), to, out.data(), n);
    EXPECT_TRUE(distances_match(p.km, out));
  }
}

TEST(TwoArrays, TimesEachCopy) {
  grader::hold_the_gpu_alone();  // it compares times
  // Under compute-sanitizer: it times calls, which the tool slows, and its 4M-point long-double
  // reference is 3 s of CPU time; MatchesReference runs the same function there (n to 100017).
  if (grader::under_sanitizer()) GTEST_SKIP() << "times calls, which the sanitizer slows";
  const int n = 1 << 22;
  const Point to = random_point();
  const Pairs p = random_pairs_to(n, to);
  std::vector<double> out = grader::poisoned_host<double>(n);
  double call_ms = 0;
  const MeshTimings t =
      timed_call([&] { return distances_from_two_arrays(p.lat.data(), p.lon.data(), to, out.data(), n); }, call_ms);
  EXPECT_TRUE(distances_match(p.km, out));
  expect_timings(t, 2, n, call_ms);
  expect_times_match_trace([&] { return distances_from_two_arrays(p.lat.data(), p.lon.data(), to, out.data(), n); },
                           host_rules(kStep3, 2, n));
  EXPECT_TRUE(distances_match(p.km, out)) << "the traced call";
}

// n = INT_MAX (2^31 - 1), the largest n the API's `int n` takes: a grid rounded up as
// (n + 255) / 256 overflows int past INT_MAX - 255 (a launch of a negative number of blocks),
// which no smaller size shows. lat, lon and out take 51.5 GB: on a GPU where that is more than
// 3/4 of its memory the check is SKIPPED, saying so (grader::allocate_if_it_fits). The inputs are
// drawn on the GPU; 4096 random points are compared with the reference (a call that got 1/1000
// of the points wrong escapes with 0.999^4096 = 1.7%; the overflow fails every point).
TEST(TwoArrays, DeviceVersionAtIntMax) {
  distances_to_point(nullptr, nullptr, kSeedPoint, nullptr, 0);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  std::optional<stepwise::DeviceBuffer<double>> lat, lon, out;
  const auto allocate = [&] {
    lat.emplace(n);
    lon.emplace(n);
    out.emplace(n);
  };
  grader::check_at_int_max("n = INT_MAX", 3 * sizeof(double) * std::size_t{n}, allocate, [&] {
    const Point to = random_point();
    grader::refill_random(lat->data(), n, -90, 90);
    grader::refill_random(lon->data(), n, -180, 180);
    grader::poison(out->data(), n);
    grader::expect_ran([&] { distances_to_point(lat->data(), lon->data(), to, out->data(), n); },
                       device_rules(kStep3Device));
    const grader::Sample sample(n, 4096);
    const std::vector<double> sampled_lat = sample.of(lat->data()), sampled_lon = sample.of(lon->data());
    Expected expected;
    for (std::size_t i = 0; i < sample.size(); ++i) expected.add(sampled_lat[i], sampled_lon[i], to.lat, to.lon);
    EXPECT_TRUE(distances_match(expected, sample.of(out->data()), &sample.indices())) << grader::kIntMaxHint;
  });
}

// ---- Step 4: the mesh made on the GPU ------------------------------------------------------

// With `traced`, the call is traced and must follow the device step's rules.
void expect_device_mesh_like_reference(Mesh mesh, Point to, bool traced = false) {
  SCOPED_TRACE(describe(mesh) + " to " + describe(to));
  Output<double> out(mesh_size(mesh));
  const auto call = [&] { mesh_distances(mesh, to, out.data()); };
  if (traced)
    grader::expect_ran(call, device_rules(kStep4Device));
  else
    call();
  ASSERT_TRUE(out.guard_intact());
  EXPECT_TRUE(mesh_matches(mesh, to, out.to_host()));
}

TEST(DeviceMesh, SeedMeshMatchesReference) {
  expect_device_mesh_like_reference(kSeedMesh, kSeedPoint, true);
  expect_device_mesh_like_reference(random_mesh(1000, 1000), random_point());
}

// A single point, single rows and columns (where nx - 1 or ny - 1 is 0), sizes just past one
// block, and odd sizes.
TEST(DeviceMesh, OddAndTinyMeshes) {
  for (const auto& size : std::vector<std::pair<int, int>>{{1, 1}, {1, 1000}, {1000, 1}, {2, 3}, {33, 9}, {31, 33}, {1000, 777}})
    expect_device_mesh_like_reference(random_mesh(size.first, size.second), random_point());
}

TEST(DeviceMesh, HostVersionMatchesAndCopiesNothingIn) {
  grader::hold_the_gpu_alone();  // it compares times
  for (const Mesh& mesh : {random_mesh(1, 1), random_mesh(33, 31), kSeedMesh}) {
    const Point to = random_point();
    SCOPED_TRACE(describe(mesh) + " to " + describe(to));
    std::vector<double> out = grader::poisoned_host<double>(mesh_size(mesh));
    double call_ms = 0;
    const MeshTimings t = timed_call([&] { return distances_on_device_mesh(mesh, to, out.data()); }, call_ms);
    EXPECT_TRUE(mesh_matches(mesh, to, out));
    expect_timings(t, 0, static_cast<int>(mesh_size(mesh)), call_ms);
  }
  // A 4000 x 2500 mesh traced (its kernel some 0.2 ms on an H100, so a kernel time that times
  // nothing is far below it): no copy to the GPU at all, and the times it reports are those of
  // its kernel and its copy back. Its distances are checked on a random sample.
  const Mesh big = random_mesh(4000, 2500);
  const Point to = random_point();
  std::vector<double> out = grader::poisoned_host<double>(mesh_size(big));
  expect_times_match_trace([&] { return distances_on_device_mesh(big, to, out.data()); },
                           host_rules(kStep4, 0, mesh_size(big)));
  Expected expected;
  std::vector<double> got;
  // 4096 of the 10M points: a call that got 1/1000 of them wrong escapes with 0.999^4096 = 1.7%.
  const grader::Sample sample(mesh_size(big), 4096);
  for (std::size_t i : sample.indices()) {
    const int x = static_cast<int>(i % big.nx), y = static_cast<int>(i / big.nx);
    expected.add(mesh_lat(big, x), mesh_lon(big, y), to.lat, to.lon, 2);
    got.push_back(out[i]);
  }
  EXPECT_TRUE(distances_match(expected, got, &sample.indices())) << "the traced call, " << describe(big);
}

// The distances of a mesh's points at a random sample of `count` of them, from a device output.
testing::AssertionResult sampled_mesh_matches(const Mesh& m, Point to, const double* d_out, std::size_t count) {
  const grader::Sample sample(mesh_size(m), count);
  Expected expected;
  for (std::size_t i : sample.indices())
    expected.add(mesh_lat(m, static_cast<int>(i % m.nx)), mesh_lon(m, static_cast<int>(i / m.nx)), to.lat, to.lon, 2);
  return distances_match(expected, sample.of(d_out), &sample.indices());
}

// What a launch error of a mesh too tall for one thread per row most likely means.
const char* const kGridYHint =
    "a grid holds at most 65,535 blocks along y (2^31 - 1 along x): with blocks of 8 rows, a mesh of more than "
    "524,280 rows needs more. Cap the grid's y at 65,535 blocks and have each thread step through the rows "
    "(y += blockDim.y * gridDim.y), as lesson 03's grid-stride loops do";

// Meshes of 1 to 3 columns and 600,000 to 800,000 rows (12.8 MB at most, legal by the header):
// more rows than a grid of 65,535 blocks of 8 rows has threads, so a grid of one thread per row
// is a launch CUDA refuses, and a grid capped without a loop over y leaves the rows past 524,280
// (at least 12% of the points) unwritten. 4096 random points are compared (such a grid misses
// all of them with probability 0.87^4096, about 10^-240) and the output's guard region checked.
// Each call is traced under step 4's rules, so tall meshes made on the host or on another stream
// fail too.
TEST(DeviceMesh, TallAndNarrowMeshes) {
  // Under compute-sanitizer, whose cost grows with every access, one column once: it reaches the loop.
  const int rounds = grader::under_sanitizer() ? 1 : 2, most_columns = grader::under_sanitizer() ? 1 : 3;
  for (int round = 0; round < rounds; ++round) {
    const Mesh mesh = random_mesh(grader::random_ints(1, 1, most_columns)[0], grader::random_ints(1, 600000, 800000)[0]);
    const Point to = random_point();
    SCOPED_TRACE(describe(mesh) + " to " + describe(to));
    Output<double> out(mesh_size(mesh));
    try {
      grader::expect_ran([&] { mesh_distances(mesh, to, out.data()); }, device_rules(kStep4Device));
      ASSERT_TRUE(out.guard_intact());
      EXPECT_TRUE(sampled_mesh_matches(mesh, to, out.data(), 4096)) << kGridYHint;
    } catch (const stepwise::CudaError& e) {
      ADD_FAILURE() << e.what() << "\n  " << kGridYHint;
    }
  }
}

// A 1 x INT_MAX mesh (nx * ny = 2^31 - 1, the most the header allows): one column of 2^31 - 1
// rows, so a loop over y whose row (or stride) is an int passes INT_MAX at a thread's last step
// and wraps negative, gigabytes before the output. The output takes 17.2 GB: on a GPU where that
// is more than 3/4 of its memory the check is SKIPPED, saying so (grader::allocate_if_it_fits).
// 4096 random points are compared with the reference.
TEST(DeviceMesh, IntMaxPoints) {
  mesh_distances(Mesh{29, 31, 99, 101, 0, 0}, kSeedPoint, nullptr);  // a step not written yet is TODO, on any GPU
  const Mesh mesh = random_mesh(1, std::numeric_limits<int>::max());
  std::optional<stepwise::DeviceBuffer<double>> out;
  const auto allocate = [&] { out.emplace(mesh_size(mesh)); };
  grader::check_at_int_max("a 1 x INT_MAX mesh", sizeof(double) * mesh_size(mesh), allocate, [&] {
    const Point to = random_point();
    SCOPED_TRACE(describe(mesh) + " to " + describe(to));
    grader::poison(out->data(), mesh_size(mesh));
    grader::expect_ran([&] { mesh_distances(mesh, to, out->data()); }, device_rules(kStep4Device));
    EXPECT_TRUE(sampled_mesh_matches(mesh, to, out->data(), 4096)) << grader::kIntMaxHint;
  });
}

// An empty input is valid and launches nothing (a grid with 0 blocks would be an invalid launch).
TEST(DeviceMesh, EmptyInputsLaunchNothing) {
  Output<double> out(0);
  distances(nullptr, nullptr, nullptr, nullptr, out.data(), 0);
  distances_to_point(nullptr, nullptr, kSeedPoint, out.data(), 0);
  for (const Mesh& empty : {Mesh{29, 31, 99, 101, 0, 0}, Mesh{29, 31, 99, 101, 0, 7}, Mesh{29, 31, 99, 101, 7, 0}}) {
    mesh_distances(empty, kSeedPoint, out.data());
    EXPECT_TRUE(distances_on_device_mesh(empty, kSeedPoint, nullptr).copy_in_ms.empty());
  }
  EXPECT_EQ(distances_from_four_arrays(nullptr, nullptr, nullptr, nullptr, nullptr, 0).total_ms(), 0.0f);
  EXPECT_EQ(distances_from_two_arrays(nullptr, nullptr, kSeedPoint, nullptr, 0).total_ms(), 0.0f);
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(out.guard_intact());
}

// ---- Speed: whole calls, host arrays in and out, timed on the host clock --------------------

// The grader's own float64 distance, for its own version 1 below (the yardstick of step 2): the
// reference solution's formula (sinpi and cospi of degrees / 180, as the step 1 hint allows), one
// thread per point, blocks of 256.
__device__ double grader_haversine_km(double lat1, double lon1, double lat2, double lon2) {
  const double sin_half_dlat = sinpi((lat2 - lat1) / 360.0);
  const double sin_half_dlon = sinpi((lon2 - lon1) / 360.0);
  const double a = sin_half_dlat * sin_half_dlat + cospi(lat1 / 180.0) * cospi(lat2 / 180.0) * sin_half_dlon * sin_half_dlon;
  return 2.0 * kEarthRadiusKm * atan2(sqrt(a), sqrt(1.0 - a));
}

__global__ void grader_distances_kernel(const double* lat, const double* lon, const double* to_lat,
                                        const double* to_lon, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = grader_haversine_km(lat[i], lon[i], to_lat[i], to_lon[i]);
}

// A mesh of 2500 x 2000 points (40 MB per array of doubles; the seed's mesh is 8 MB), fewer rows
// where the GPU cannot hold the five arrays of the first version. The host arrays are ordinary
// (pageable) memory, as NumPy's are; lesson 05 makes the copies themselves faster. Each timed
// call gets a new fixed point and a poisoned output, and its distances are checked after timing.
struct SpeedSetup {
  Mesh mesh;
  MeshArrays arrays;
  Point to = kSeedPoint;
  std::vector<double> to_lat, to_lon, out;

  SpeedSetup() {
    const std::size_t points = grader::fit_in_device_memory(2500 * 2000, 5 * sizeof(double));
    mesh.nx = 2500;
    mesh.ny = static_cast<int>(points / 2500);
    arrays = mesh_on_host(mesh);
    to_lat.resize(mesh_size(mesh));
    to_lon.resize(mesh_size(mesh));
    out.resize(mesh_size(mesh));
  }
  int n() const { return static_cast<int>(mesh_size(mesh)); }

  void four_arrays() {
    distances_from_four_arrays(arrays.lat.data(), arrays.lon.data(), to_lat.data(), to_lon.data(), out.data(), n());
  }
  void two_arrays() { distances_from_two_arrays(arrays.lat.data(), arrays.lon.data(), to, out.data(), n()); }
  void device_mesh() { distances_on_device_mesh(mesh, to, out.data()); }
  // The grader's own version 1, the same work as step 2's: five device buffers, the same four
  // copies in from the same pageable host arrays, the grader's kernel, the same copy back.
  void grader_four_arrays() {
    const int count = n();
    stepwise::DeviceBuffer<double> d_lat(count), d_lon(count), d_to_lat(count), d_to_lon(count), d_out(count);
    CUDA_CHECK(cudaMemcpy(d_lat.data(), arrays.lat.data(), d_lat.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_lon.data(), arrays.lon.data(), d_lon.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_to_lat.data(), to_lat.data(), d_to_lat.bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_to_lon.data(), to_lon.data(), d_to_lon.bytes(), cudaMemcpyHostToDevice));
    grader_distances_kernel<<<(count - 1) / 256 + 1, 256>>>(d_lat.data(), d_lon.data(), d_to_lat.data(),
                                                            d_to_lon.data(), d_out.data(), count);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost));
  }
  // What the device mesh version cannot do without: its kernel, and one copy of the result back
  // (with the device memory it needs). The grader's baseline, timed as it is.
  void kernel_and_copy_out() {
    stepwise::DeviceBuffer<double> d_out(mesh_size(mesh));
    mesh_distances(mesh, to, d_out.data());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost));
  }

  // One version's whole call as a grader::Workload: a new point each run, the output poisoned,
  // and the distances at a fresh random sample of points checked against the reference; one
  // more call is traced and must follow the version's rules.
  grader::Workload whole_call(void (SpeedSetup::*call)(), const grader::Rules& rules) {
    grader::Workload work{[this] {
              to = random_point();
              std::fill(to_lat.begin(), to_lat.end(), to.lat);
              std::fill(to_lon.begin(), to_lon.end(), to.lon);
              std::fill(out.begin(), out.end(), grader::poisoned_host<double>(1)[0]);
            },
            [this, call] { (this->*call)(); },
            [this] {
              Expected expected;
              std::vector<double> got;
              const grader::Sample sample(n(), kSampledPoints);
              for (std::size_t i : sample.indices()) {
                expected.add(arrays.lat[i], arrays.lon[i], to.lat, to.lon, 2);  // the device mesh computes its own points
                got.push_back(out[i]);
              }
              return distances_match(expected, got, &sample.indices());  // mismatches named by point
            }};
    work.what_ran = rules;
    return work;
  }
  // 4096 random points of the 5M: the long-double reference costs about 3 ms; a call that
  // skipped even 1/1000 of the points misses the sample with probability (0.999)^4096 = 1.7%.
  static constexpr std::size_t kSampledPoints = 4096;

  // The ceiling of a figure `reference_ms` over a version's time: no version takes less than its
  // copies over the host link, at grader::fastest_host_copy_ms (1.25 x the link's speed as the
  // grader's own pinned copies measure it in this run; its comment derives it). Copies in and the
  // copy back may overlap (two copy engines, a chunked pipeline), so the longer of the two is the
  // bound, not their sum. The smallest fault it admits: a call whose timed runs take a fifth less
  // than a pinned copy back alone; the solution's pageable copy back of 40 MB takes about 2.7 ms
  // on the H100 against a floor of 0.58 ms (55 GB/s pinned, README), so a call that leaves out
  // its copy back on the timed runs, doing only its kernel, fails here (broken submission
  // copies_back_only_when_checked). (It replaces a fixed 1000 GB/s: 1/18 of a pinned copy's time,
  // less than the kernel of the device mesh, which such a call still ran.)
  double ceiling(double reference_ms, double bytes_in, double bytes_back) const {
    return reference_ms / std::max(grader::fastest_host_copy_ms(bytes_in, cudaMemcpyHostToDevice),
                                   grader::fastest_host_copy_ms(bytes_back, cudaMemcpyDeviceToHost));
  }
  grader::Figure with_ceiling(grader::Figure figure, double reference_ms, double bytes_in, double bytes_back) const {
    figure.ceiling = ceiling(reference_ms, bytes_in, bytes_back);
    figure.ceiling_means = "faster than the host link can move the call's copies";
    return figure;
  }
};

grader::TimingOptions whole_call_options() {
  grader::TimingOptions options;
  options.flush_l2 = false;
  options.warmup = 1;  // loads the kernel and touches the host output's pages
  options.repeats = 7;
  return options;
}

// The median time of a whole call, the host arrays in and out.
double call_ms(SpeedSetup& s, void (SpeedSetup::*call)(), const grader::Rules& rules) {
  return grader::gpu_median_ms(s.whole_call(call, rules), whole_call_options());
}

// The median time of the grader's own version 1, timed as a student's call is (a new point each
// run, the output poisoned, its distances checked on a random sample), but not traced.
double grader_four_arrays_ms(SpeedSetup& s) {
  grader::Workload work = s.whole_call(&SpeedSetup::grader_four_arrays, host_rules(kStep2, 4, s.n()));
  work.what_ran = std::nullopt;  // the grader's own code
  return grader::gpu_median_ms(work, whole_call_options());
}

// Step 2 on its own: the student's version 1 against the grader's own version 1 on the same mesh
// in the same run (SpeedSetup::grader_four_arrays: the same buffers, the same four pageable copies
// in and one back, the grader's float64 kernel), 1 being as fast. Step 2 is also the yardstick of
// DeviceMeshBeatsFourArrays and TwoArraysBeatFourArrays, which a slow version 1 would flatter; a
// yardstick against the host link alone would not do, since the pageable copies take 3 to 6 times
// the pinned link's time, and that factor varies from host to host. The ceiling: no version 1 takes
// less than its copies over the host link (SpeedSetup::ceiling). The smallest fault the minimum
// admits: a version 1 that spends up to one more whole call's time (a kernel of 20 ms, say, on the
// H100 where the solution's call takes about 20 ms) passes at 0.5.
TEST(MeshSpeed, FourArraysNearGraderVersion) {
  SpeedSetup s;
  grader::expect_speed([&] {
    const double grader_ms = grader_four_arrays_ms(s);
    const double four_ms = call_ms(s, &SpeedSetup::four_arrays, host_rules(kStep2, 4, s.n()));
    const grader::Figure figure = grader::speedup(grader_ms, four_ms, "the grader's four-array version");
    return s.with_ceiling(figure, grader_ms, 4 * 8.0 * s.n(), 8.0 * s.n());  // four arrays in, the distances back
  });
}

// The four-array version is the yardstick of the two checks below, so it is held to its own
// minimum there too (the requirement of MeshSpeed.FourArraysNearGraderVersion), in their own
// measurements (grader/yardstick.h): the highest of their figures grader_ms / four_ms counts.
// A version 1 made slow, there or only there, would flatter the later versions' figures. The
// smallest fault this admits: a version 1 at that minimum, 0.5 of the grader's version, flatters
// the figures by up to 2x.
grader::Yardstick four_arrays_yardstick() {
  return grader::Yardstick("the four-array version", "04-gpu-mesh/MeshSpeed.FourArraysNearGraderVersion",
                           "the grader's four-array version",
                           "a slow version 1 flatters the later versions' figures, so they count only once step 2 is "
                           "fast enough");
}

// A later version's speed-up over step 2 (four arrays from the host): `version`, traced under
// `step`'s rules with `copies_in` arrays copied in, and a ceiling for the bytes it must still move
// (those arrays in, the distances back). Step 2 is held to its own minimum there (the yardstick).
void expect_beats_four_arrays(void (SpeedSetup::*version)(), const std::string& step, std::size_t copies_in) {
  SpeedSetup s;
  grader::Yardstick yardstick = four_arrays_yardstick();
  grader::expect_speed([&] {
    const double four_ms = call_ms(s, &SpeedSetup::four_arrays, host_rules(kStep2, 4, s.n()));
    const double grader_ms = grader_four_arrays_ms(s);
    yardstick.add(grader_ms / four_ms, four_ms, " ms vs ", grader_ms, " ms");
    const grader::Figure figure =
        grader::speedup(four_ms, call_ms(s, version, host_rules(step, copies_in, s.n())), "four arrays from the host");
    return s.with_ceiling(figure, four_ms, copies_in * 8.0 * s.n(), 8.0 * s.n());
  });
  EXPECT_TRUE(yardstick.fast_enough());
}

TEST(MeshSpeed, DeviceMeshBeatsFourArrays) { expect_beats_four_arrays(&SpeedSetup::device_mesh, kStep4, 0); }

TEST(MeshSpeed, TwoArraysBeatFourArrays) { expect_beats_four_arrays(&SpeedSetup::two_arrays, kStep3, 2); }

// The device mesh version must copy nothing to the GPU: its whole call may take little more
// than its kernel and the one copy back. Copying the mesh in, even unmarked, fails this.
TEST(MeshSpeed, DeviceMeshCopiesOnlyTheResult) {
  SpeedSetup s;
  grader::expect_speed([&] {
    s.kernel_and_copy_out();  // loads the kernel and touches the pages
    const double baseline_ms = grader::cpu_median_ms([&] { s.kernel_and_copy_out(); }, 7);
    const grader::Figure figure = grader::speedup(
        baseline_ms, call_ms(s, &SpeedSetup::device_mesh, host_rules(kStep4, 0, s.n())), "its kernel and one copy back");
    return s.with_ceiling(figure, baseline_ms, 0, 8.0 * s.n());  // nothing in, the distances back
  });
}

}  // namespace
