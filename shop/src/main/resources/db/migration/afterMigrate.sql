-- Shop: what the application role may do, set again after every migration run (a Flyway callback).
--
-- Migrations run as the schema owner (spring.flyway.user); the application connects as another
-- role (spring.datasource.username), given in ${application_role} by Once's starter at start.
-- When both are the same role there is nothing to grant: an owner can do everything, and the
-- guards that remain are the triggers (docs/security.md explains what that leaves open).
--
-- The grants are exact: everything is revoked first, so a privilege removed here is removed from a
-- running database too. In short, the application role
--   * reads everything it serves;
--   * inserts clients, keys, accounts (never their balance), journal rows (never balance_after or
--     seq, which the guard trigger sets), payments (never refunded) and refunds;
--   * updates only a client's disabled_at, a payment's status, refunded and updated_at, a
--     refund's status, operation_id (its credit, once confirmed) and updated_at, a product's
--     stock counters, an order's status, payment,
--     refund and times, and a reservation's state;
--   * never updates an account, never updates, deletes or truncates the journal, never deletes
--     anything of the shop.
DO
$$
DECLARE
    app text := '${application_role}';
BEGIN
    IF app = '' OR app = current_user THEN
        RETURN;
    END IF;
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA %I FROM %I', '${flyway:defaultSchema}', app);
    EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA %I FROM %I', '${flyway:defaultSchema}', app);
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', '${flyway:defaultSchema}', app);
    EXECUTE format('GRANT SELECT, INSERT ON client, api_key TO %I', app);
    EXECUTE format('GRANT UPDATE (disabled_at) ON client TO %I', app);
    EXECUTE format('GRANT SELECT ON account, operation, payment, refund TO %I', app);
    EXECUTE format('GRANT INSERT (id, client_id, currency, created_at) ON account TO %I', app);
    EXECUTE format('GRANT INSERT (id, account_id, kind, amount, reverses, created_at)'
                   ' ON operation TO %I', app);
    EXECUTE format('GRANT INSERT (id, client_id, account_id, amount, currency, description, status,'
                   ' charge_operation_id, order_id, created_at, updated_at) ON payment TO %I', app);
    EXECUTE format('GRANT UPDATE (status, refunded, updated_at) ON payment TO %I', app);
    EXECUTE format('GRANT INSERT (id, payment_id, amount, status, operation_id, created_at)'
                   ' ON refund TO %I', app);
    EXECUTE format('GRANT UPDATE (status, operation_id, updated_at) ON refund TO %I', app);
    EXECUTE format('GRANT SELECT ON product, orders, order_item, reservation TO %I', app);
    EXECUTE format('GRANT INSERT (client_id, sku, name, price, currency, initial_stock, available,'
                   ' created_at, updated_at) ON product TO %I', app);
    EXECUTE format('GRANT UPDATE (available, reserved, restocked, updated_at) ON product TO %I', app);
    EXECUTE format('GRANT INSERT (id, client_id, account_id, status, total, currency, created_at,'
                   ' updated_at) ON orders TO %I', app);
    EXECUTE format('GRANT UPDATE (status, payment_id, refund_id, reserved_at, updated_at)'
                   ' ON orders TO %I', app);
    EXECUTE format('GRANT INSERT ON order_item TO %I', app);
    EXECUTE format('GRANT INSERT ON reservation TO %I', app);
    EXECUTE format('GRANT UPDATE (state, updated_at) ON reservation TO %I', app);
END;
$$;
