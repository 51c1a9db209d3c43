//! Reading inputs: files, directories, globs and stdin; multi-document YAML and JSON; dispatch
//! by apiVersion/kind into the model, with `file#document` locations for every error.
