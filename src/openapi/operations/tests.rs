use super::*;
use crate::http::routes::ROUTES;

#[test]
fn every_route_below_the_base_path_has_one_operation_and_every_operation_a_route() {
    for route in ROUTES.iter().filter(|r| !r.root) {
        let found = OPERATIONS
            .iter()
            .filter(|op| op.id == route.operation_id)
            .count();
        assert_eq!(found, 1, "{}", route.operation_id);
    }
    for op in OPERATIONS {
        assert!(
            ROUTES.iter().any(|r| !r.root && r.operation_id == op.id),
            "{} has no route",
            op.id
        );
    }
}
