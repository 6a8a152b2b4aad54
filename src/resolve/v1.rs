//! OLM v1 (operator-controller) bundle selection for one package.
