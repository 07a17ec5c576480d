package dev.once.verify.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShopMetersTest {

  @Test
  void eachMeterIsSummedOverItsLabelsAndAMissingOneIsNaN() {
    ShopMeters meters =
        ShopMeters.parse(
            """
            # HELP once_outbox_relay_claims_total claims
            # TYPE once_outbox_relay_claims_total counter
            once_outbox_relay_claims_total 4.0
            once_outbox_relay_claimed_rows_total{type="order.placed"} 300.0
            once_outbox_relay_claimed_rows_total{type="stock.reserved",note="a b"} 100.0

            http_server_requests_seconds_count{uri="/v1/orders"} 7 1733440000000
            """);

    assertThat(meters.get("once_outbox_relay_claims_total")).isEqualTo(4.0);
    assertThat(meters.get("once_outbox_relay_claimed_rows_total")).isEqualTo(400.0);
    assertThat(
            meters.ratio("once_outbox_relay_claimed_rows_total", "once_outbox_relay_claims_total"))
        .isEqualTo(100.0);
    assertThat(meters.get("http_server_requests_seconds_count")).isEqualTo(7.0);
    assertThat(meters.get("kafka_producer_request_total")).isNaN();
  }
}
