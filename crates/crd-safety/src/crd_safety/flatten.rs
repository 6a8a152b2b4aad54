//! A schema flattened to its properties by path, as crdify walks it: `^` for the root,
//! `.name` for a property, `.items`, `.additionalProperties`, `.not`, `.additionalItems`,
//! `.allOf[0]` (and `anyOf`, `oneOf`, positional `items[0]`), `.patternProperties[key]`,
//! `.definitions[key]`, `.dependencies[key]`. When two sub-schemas share a path (a property
//! named `items` beside `items`), the one visited last wins, in crdify's visiting order.

use crate::hash::{HashMap, HashMapExt};

use super::schema::Schema;

/// Sub-schemas by path.
pub(crate) type Flat<'a> = HashMap<String, &'a Schema>;

/// Every sub-schema of `root` by path.
pub(crate) fn flatten(root: Option<&Schema>) -> Flat<'_> {
    let mut out = HashMap::new();
    if let Some(root) = root {
        visit(root, "^".to_string(), &mut out);
    }
    out
}

fn visit<'a>(s: &'a Schema, path: String, out: &mut Flat<'a>) {
    out.insert(path.clone(), s);
    if let Some(items) = &s.items {
        if let Some(one) = &items.schema {
            visit(one, format!("{path}.items"), out);
        }
        for (i, each) in items.schemas.iter().enumerate() {
            visit(each, format!("{path}.items[{i}]"), out);
        }
    }
    for (name, list) in [("allOf", &s.all_of), ("anyOf", &s.any_of), ("oneOf", &s.one_of)] {
        for (i, each) in list.iter().enumerate() {
            visit(each, format!("{path}.{name}[{i}]"), out);
        }
    }
    if let Some(not) = &s.not {
        visit(not, format!("{path}.not"), out);
    }
    for (name, each) in &s.properties {
        visit(each, format!("{path}.{name}"), out);
    }
    if let Some(schema) = s.additional_properties.as_ref().and_then(|a| a.schema.as_deref()) {
        visit(schema, format!("{path}.additionalProperties"), out);
    }
    for (key, each) in &s.pattern_properties {
        visit(each, format!("{path}.patternProperties[{key}]"), out);
    }
    if let Some(schema) = s.additional_items.as_ref().and_then(|a| a.schema.as_deref()) {
        visit(schema, format!("{path}.additionalItems"), out);
    }
    for (key, each) in &s.definitions {
        visit(each, format!("{path}.definitions[{key}]"), out);
    }
    for (key, dep) in &s.dependencies {
        if let Some(schema) = dep.schema.as_deref() {
            visit(schema, format!("{path}.dependencies[{key}]"), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd_safety::schema::{Items, OrBool};

    #[test]
    fn every_kind_of_child_has_its_path() {
        let leaf = Schema { type_: "string".into(), ..Schema::default() };
        let mut root = Schema::default();
        root.properties.push(("spec".into(), leaf.clone()));
        root.items = Some(Items { schema: Some(Box::new(leaf.clone())), schemas: vec![leaf.clone()] });
        root.all_of = vec![leaf.clone()];
        root.additional_properties = Some(OrBool { allows: true, schema: Some(Box::new(leaf.clone())) });
        root.pattern_properties.push(("^a$".into(), leaf.clone()));
        let mut paths: Vec<String> = flatten(Some(&root)).into_keys().collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                "^",
                "^.additionalProperties",
                "^.allOf[0]",
                "^.items",
                "^.items[0]",
                "^.patternProperties[^a$]",
                "^.spec"
            ]
        );
    }
}
