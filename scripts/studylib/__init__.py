"""ssdtlm studies: parameter sweeps of a platform on Dask, with a run cache, one results table and figures.

spec     study files -> points (configuration, seed, command line)
cache    finished runs by hash of (executable build id, configuration)
task     what a Dask worker runs (one platform process); shipped to the workers by value
engine   cache look-up, Dask execution with progress, results.csv / runs.csv / commands.sh
table    flattening summary.json, results.csv's columns and units
plot     figures from results.csv
"""
