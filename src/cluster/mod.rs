//! What a cluster asks of its catalogs, as checked models: the inputs of OLM's selections built
//! from user-facing descriptions (JSON problems), with every version and range already parsed.

pub mod v1_problem;
