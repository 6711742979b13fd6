//! The hall's tests live in `tests/hall/` (one test binary, `hall`): this library is
//! empty, the target Cargo needs for a package. They are a package apart from `server`
//! so that the workspace's `Cargo.toml` can compile them unoptimized while the server
//! they test stays optimized (a profile is set per package, not per target).

#![forbid(unsafe_code)]
