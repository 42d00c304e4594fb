"""The small drive the CLI tests run on: 2 x 2 dies of 64 blocks of 64 pages, a 1 MiB buffer (a run of a few
thousand I/Os takes milliseconds). SMALL keeps the default preconditioning (a filled, aged drive); FRESH skips the
drive writes of the jobs' patterns."""
SMALL = ["--set", "geometry.channels=2", "--set", "geometry.dies_per_channel=2",
         "--set", "geometry.blocks_per_plane=64", "--set", "geometry.pages_per_block=64",
         "--set", "buffer.bytes=1M"]
FRESH = SMALL + ["--set", "precondition.drive_writes=0"]
