#!/usr/bin/env python3
"""Draws the GPU rows of an Nsight Systems trace as an SVG timeline, one row per stream.

Input: the CSV of `nsys stats --report cuda_gpu_trace --format csv`. Only the last run of the
lesson 05 demo's pipeline is drawn: the copies and kernels after the trace's last gap of more
than 10 ms. Made for docs/images/streams-nsys.svg:
  nsys profile --trace=cuda -o streams build/bin/lesson05-demo-solution --chunks 8
  nsys stats --report cuda_gpu_trace --format csv --output streams streams.nsys-rep
  python3 docs/images/nsys_timeline.py streams_cuda_gpu_trace.csv > docs/images/streams-nsys.svg
"""
import csv
import sys

COPY_IN, KERNEL, COPY_OUT = ("copy in", "#4c9a2a"), ("kernel", "#2e6fba"), ("copy out", "#c0392b")
KINDS = {"Host-to-Device": COPY_IN, "Device-to-Host": COPY_OUT}  # anything else is a kernel

rows = [(int(r["Start (ns)"]), int(r["Duration (ns)"]), r["Strm"], r["Name"]) for r in csv.DictReader(open(sys.argv[1]))]
rows.sort()
start = 0
for i in range(1, len(rows)):
    if rows[i][0] - (rows[i - 1][0] + rows[i - 1][1]) > 10_000_000:
        start = i
rows = rows[start:]
t0 = rows[0][0]
t1 = max(s + d for s, d, _, _ in rows)
streams = sorted({r[2] for r in rows}, key=int)

left, width, lane, top = 90, 720, 28, 30
scale = width / (t1 - t0)
height = top + lane * len(streams) + 50
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" '
       'font-family="sans-serif" font-size="12">',
       f'<rect width="100%" height="100%" fill="white"/>',
       f'<text x="{left}" y="18">The pipeline as Nsight Systems traced it on an H100 (8 chunks, 3 streams)</text>']
for lane_index, stream in enumerate(streams):
    y = top + lane * lane_index
    out.append(f'<text x="4" y="{y + 17}">stream {lane_index}</text>')
    for s, d, strm, name in rows:
        if strm != stream:
            continue
        label, color = next((v for k, v in KINDS.items() if k in name), KERNEL)
        x = left + (s - t0) * scale
        out.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{max(d * scale - 1, 1):.1f}" height="{lane - 8}" '
                   f'fill="{color}"><title>{label}: {d / 1e6:.3f} ms</title></rect>')
axis_y = top + lane * len(streams) + 8
out.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + width}" y2="{axis_y}" stroke="black"/>')
total_ms = (t1 - t0) / 1e6
for tick in range(int(total_ms) + 1):
    x = left + tick * 1e6 * scale
    out.append(f'<line x1="{x:.1f}" y1="{axis_y}" x2="{x:.1f}" y2="{axis_y + 4}" stroke="black"/>'
               f'<text x="{x - 4:.1f}" y="{axis_y + 16}">{tick} ms</text>')
legend_x = left
for label, color in (COPY_IN, KERNEL, COPY_OUT):
    out.append(f'<rect x="{legend_x}" y="{axis_y + 24}" width="12" height="12" fill="{color}"/>'
               f'<text x="{legend_x + 16}" y="{axis_y + 34}">{label}</text>')
    legend_x += 90
out.append("</svg>")
print("\n".join(out))
