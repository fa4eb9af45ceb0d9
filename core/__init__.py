"""The plumbing every app stands on: user errors, row locks, audit history, idempotent
writes, the workers' heartbeat and /healthz. Imports no other app of the project."""
