"""The floor every subpackage stands on: errors, files, arrays, strings, threads, progress,
compiled code, devices, digests and provenance. Nothing here imports a sparsebench
module outside core/.
"""
