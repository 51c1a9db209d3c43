//! Label selectors: requirements, the string syntax, metav1.LabelSelector, claim selectors,
//! the federation cluster-selector annotation, Kubernetes key/value validation, and a bitset
//! index for evaluating selectors over a whole fleet. Semantics: apimachinery `pkg/labels`.
