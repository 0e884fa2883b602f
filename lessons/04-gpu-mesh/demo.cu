// Lesson 04 demo: the distance from every point of a mesh to one place, three ways, and where
// the time of each goes, like the profiler table in seed 002.
//   lesson04-demo [--size NXxNY] [--point LAT LON] [--bounds LAT_FIRST LAT_LAST LON_FIRST LON_LAST]
// Defaults: the seed's 1000 x 1000 mesh of [29, 31] x [99, 101] degrees, to (30, 101).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_mesh.h"
#include "mesh_cpu.h"
#include "stepwise/check.h"
#include "stepwise/demo.h"
#include "stepwise/host_timer.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

struct Options {
  Mesh mesh;  // the seed's
  Point to{30, 101};
};

std::string help() {
  const Options o;
  const auto n = [](double value) { return stepwise::number_text(value); };
  return stepwise::help_text(
      "usage: lesson04-demo [--size NXxNY] [--point LAT LON] [--bounds LAT_FIRST LAT_LAST LON_FIRST LON_LAST]",
      {{"--size NXxNY", "the mesh's points, each side 1 to 8192", std::to_string(o.mesh.nx) + "x" + std::to_string(o.mesh.ny)},
       {"--point LAT LON", "the place distances are measured to, in degrees", n(o.to.lat) + " " + n(o.to.lon)},
       {"--bounds LAT_FIRST LAT_LAST LON_FIRST LON_LAST", "the mesh's corners, in degrees",
        n(o.mesh.lat_first) + " " + n(o.mesh.lat_last) + " " + n(o.mesh.lon_first) + " " + n(o.mesh.lon_last)}});
}

double parse_degrees(const std::string& text, const char* what, double limit) {
  const double value = stepwise::parse_number(text, what);
  if (std::fabs(value) > limit)
    throw std::invalid_argument(std::string(what) + " must lie within +-" + std::to_string(static_cast<int>(limit)) +
                                " degrees, got '" + text + "'");
  return value;
}

Options parse_options(int argc, char** argv) {
  Options o;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--size")) {
      const stepwise::Size2 size = stepwise::parse_size(flags.values(1)[0], "--size", 8192);
      o.mesh.nx = size.width;
      o.mesh.ny = size.height;
    } else if (flags.is("--point")) {
      const std::vector<std::string> v = flags.values(2);
      o.to = {parse_degrees(v[0], "LAT", 90), parse_degrees(v[1], "LON", 360)};
    } else if (flags.is("--bounds")) {
      const std::vector<std::string> v = flags.values(4);
      o.mesh.lat_first = parse_degrees(v[0], "LAT_FIRST", 90);
      o.mesh.lat_last = parse_degrees(v[1], "LAT_LAST", 90);
      o.mesh.lon_first = parse_degrees(v[2], "LON_FIRST", 360);
      o.mesh.lon_last = parse_degrees(v[3], "LON_LAST", 360);
    } else {
      flags.unknown();
    }
  }
  return o;
}

// Version 1 needs five arrays of doubles on the GPU; say so now rather than fail half-way.
void require_device_memory(const Mesh& mesh) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double needed_mb = 5.0 * sizeof(double) * mesh_size(mesh) / 1e6;
  if (needed_mb > 0.9 * free_bytes / 1e6)
    throw std::invalid_argument("a " + std::to_string(mesh.nx) + "x" + std::to_string(mesh.ny) + " mesh needs " +
                                std::to_string(static_cast<long>(needed_mb)) + " MB on the GPU, but only " +
                                std::to_string(static_cast<long>(free_bytes / 1e6)) +
                                " MB are free: choose a smaller --size");
}

// One version's result: its timings, its whole call on the host clock, its largest error.
struct Run {
  const char* name;
  MeshTimings timings;
  double call_ms = 0;
  double max_error_km = 0;
  std::string missing;  // the step still to write, if the version is not written yet
};

// Runs a version once to load its kernel, then once timed; compares up to a million of its
// distances with the long-double reference.
Run run_version(const char* name, const std::function<MeshTimings()>& version, const Mesh& mesh, Point to,
                const std::vector<double>& out) {
  Run run{name, {}, 0, 0, ""};
  try {
    version();
    run.call_ms = stepwise::host_ms([&] { run.timings = version(); });
  } catch (const stepwise::NotImplemented& e) {
    run.missing = e.what();
    return run;
  }
  const std::size_t step = std::max<std::size_t>(1, out.size() / 1000000);
  for (std::size_t i = 0; i < out.size(); i += step) {
    const int x = static_cast<int>(i % mesh.nx), y = static_cast<int>(i / mesh.nx);
    const long double exact = reference_distance_km(mesh_lat(mesh, x), mesh_lon(mesh, y), to.lat, to.lon);
    run.max_error_km = std::max(run.max_error_km, static_cast<double>(std::fabs(out[i] - exact)));
  }
  return run;
}

// One row of the table: each copy to the GPU on its own, then the kernel, the copy back, their
// sum, and the whole call.
void print(const Run& run) {
  if (!run.missing.empty()) {
    std::printf("  %-34s %s\n", run.name, run.missing.c_str());
    return;
  }
  const MeshTimings& t = run.timings;
  std::string copies = t.copy_in_ms.empty() ? "none" : "";
  char ms[16];
  for (float copy_ms : t.copy_in_ms) {
    std::snprintf(ms, sizeof ms, "%.3f", copy_ms);
    copies += (copies.empty() ? "" : " + ") + std::string(ms);
  }
  std::printf("  %-34s %-33s %8.3f %10.3f %10.3f %10.3f %12.2g\n", run.name, copies.c_str(), t.kernel_ms,
              t.copy_out_ms, t.total_ms(), run.call_ms, run.max_error_km);
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const Options o = parse_options(argc, argv);
    const Mesh& mesh = o.mesh;
    require_device_memory(mesh);
    const int n = static_cast<int>(mesh_size(mesh));

    // The seed builds the mesh, and the arrays that repeat the fixed point, on the host first,
    // and leaves that out of its timing; so does this demo, but it shows what it costs.
    MeshArrays arrays;
    std::vector<double> to_lat, to_lon;
    const double build_ms = stepwise::host_ms([&] {
      arrays = mesh_on_host(mesh);
      to_lat.assign(n, o.to.lat);
      to_lon.assign(n, o.to.lon);
    });
    std::vector<double> out(n);

    const Run runs[] = {
        run_version("1. four arrays from the host", [&] {
          return distances_from_four_arrays(arrays.lat.data(), arrays.lon.data(), to_lat.data(), to_lon.data(), out.data(), n);
        }, mesh, o.to, out),
        run_version("2. two arrays, the point by value", [&] {
          return distances_from_two_arrays(arrays.lat.data(), arrays.lon.data(), o.to, out.data(), n);
        }, mesh, o.to, out),
        run_version("3. the mesh made on the GPU", [&] { return distances_on_device_mesh(mesh, o.to, out.data()); },
                    mesh, o.to, out),
    };

    std::printf("Distances from a %d x %d mesh of lat [%g, %g], lon [%g, %g] to (%g, %g), in float64\n", mesh.nx,
                mesh.ny, mesh.lat_first, mesh.lat_last, mesh.lon_first, mesh.lon_last, o.to.lat, o.to.lon);
    std::printf("%d points, %.1f MB per array of doubles, host arrays in ordinary (pageable) memory\n\n", n, 8.0 * n / 1e6);
    std::printf("  %-34s %-33s %8s %10s %10s %10s %12s\n", "version (times in ms)", "each copy to the GPU", "kernel",
                "copy back", "parts sum", "whole call", "max error km");
    for (const Run& run : runs) print(run);
    std::printf("\nBuilding the mesh and the point's arrays on the host took %.3f ms (not in the times above).\n",
                build_ms);

    const Run& first = runs[0];
    const Run& last = runs[2];
    if (first.missing.empty() && last.missing.empty()) {
      std::printf("Version 1 spends %.0f%% of its GPU time copying; version 3 is %.1fx faster as a whole call.\n",
                  100.0 * (first.timings.total_ms() - first.timings.kernel_ms) / first.timings.total_ms(),
                  first.call_ms / last.call_ms);
    }
    for (const Run& run : runs)
      if (run.missing.empty()) return;
    throw stepwise::NotImplemented(runs[0].missing);  // nothing written yet: exit as a TODO
  });
}
