"""The array helpers every reader and the engine share: Arrow <-> numpy without pandas (conversions), string
fingerprints and doc hashes with numpy (hashing), and a large job split in two halves over two cores (parallel)."""
