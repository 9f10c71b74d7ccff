"""The process's resources: memory given back between stages, threads for big frames, files
written atomically and durably."""
