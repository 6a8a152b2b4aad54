//! Graph lints: warnings about upgrade graphs that opm accepts but that strand users or surprise
//! authors. Each says what to change.
