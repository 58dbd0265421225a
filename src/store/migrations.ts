/**
 * Versioned schema migrations, applied in order at open and recorded in schema_migrations.
 * Never edit a released migration; add the next number. One statement per array entry.
 * u64 values are numeric(20,0) (read back as decimal strings), keys base58 text.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "trigger orders: issued transactions, executions, orders, trades, tracker cursors",
    statements: [
      `CREATE TABLE issued_transactions (
        request_id text NOT NULL,
        tx_index integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('create_order', 'cancel_order', 'cancel_orders')),
        maker text NOT NULL,
        order_keys text[] NOT NULL,
        message bytea NOT NULL,
        message_hash text NOT NULL,
        last_valid_block_height numeric(20,0),
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (request_id, tx_index)
      )`,
      `CREATE INDEX issued_transactions_message_hash ON issued_transactions (message_hash)`,
      `CREATE TABLE executions (
        signature text PRIMARY KEY,
        request_id text NOT NULL,
        message_hash text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('Pending', 'Success', 'Failed')),
        code integer,
        error text,
        last_valid_block_height numeric(20,0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX executions_pending ON executions (created_at) WHERE status = 'Pending'`,
      `CREATE TABLE orders (
        order_key text PRIMARY KEY,
        maker text NOT NULL,
        input_mint text NOT NULL,
        output_mint text NOT NULL,
        input_token_program text,
        output_token_program text,
        input_decimals smallint,
        output_decimals smallint,
        unique_id numeric(20,0),
        raw_making_amount numeric(20,0) NOT NULL,
        raw_taking_amount numeric(20,0) NOT NULL,
        raw_remaining_making_amount numeric(20,0) NOT NULL,
        raw_remaining_taking_amount numeric(20,0) NOT NULL,
        slippage_bps integer NOT NULL DEFAULT 0,
        fee_bps integer,
        fee_account text,
        expired_at numeric(20,0),
        status text NOT NULL CHECK (status IN ('Open', 'Completed', 'Cancelled')),
        open_tx text NOT NULL DEFAULT '',
        close_tx text NOT NULL DEFAULT '',
        program_id text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX orders_maker_created ON orders (maker, created_at DESC, order_key)`,
      `CREATE INDEX orders_open ON orders (updated_at) WHERE status = 'Open'`,
      `CREATE TABLE trades (
        tx_signature text NOT NULL,
        order_key text NOT NULL,
        trade_index integer NOT NULL,
        keeper text NOT NULL,
        input_mint text NOT NULL,
        output_mint text NOT NULL,
        raw_input_amount numeric(20,0) NOT NULL,
        raw_output_amount numeric(20,0) NOT NULL,
        fee_account text NOT NULL,
        raw_fee_amount numeric(20,0) NOT NULL,
        action text NOT NULL DEFAULT 'Fill',
        succeeded boolean NOT NULL DEFAULT true,
        confirmed_at timestamptz NOT NULL,
        PRIMARY KEY (tx_signature, order_key, trade_index)
      )`,
      `CREATE INDEX trades_order ON trades (order_key, confirmed_at)`,
      `CREATE TABLE tracker_cursors (
        order_key text PRIMARY KEY,
        last_signature text NOT NULL,
        last_slot numeric(20,0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 2,
    name: "executions keep the signed transaction, so a restart can re-send it while its blockhash is valid",
    statements: ["ALTER TABLE executions ADD COLUMN signed_transaction bytea"],
  },
  {
    version: 3,
    name: "swap orders (Swap API v2 order/execute, /swap/v1/execute): issued swap transactions and the amounts they swapped",
    statements: [
      "ALTER TABLE issued_transactions DROP CONSTRAINT issued_transactions_kind_check",
      `ALTER TABLE issued_transactions ADD CONSTRAINT issued_transactions_kind_check
        CHECK (kind IN ('create_order', 'cancel_order', 'cancel_orders', 'swap'))`,
      `CREATE TABLE swap_orders (
        request_id text PRIMARY KEY,
        taker text NOT NULL,
        input_mint text NOT NULL,
        output_mint text NOT NULL,
        in_amount numeric(20,0) NOT NULL,
        out_amount numeric(20,0) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE swap_results (
        signature text PRIMARY KEY,
        slot numeric(20,0),
        input_amount numeric(20,0) NOT NULL,
        output_amount numeric(20,0) NOT NULL,
        swap_events text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 4,
    name: "landing decided by the chain: the landed slot and what decided an execution's status, the send lease (one sender across replicas); results without amounts out",
    statements: [
      "ALTER TABLE executions ADD COLUMN slot numeric(20,0)",
      "ALTER TABLE executions ADD COLUMN decided_by text CHECK (decided_by IN ('chain', 'refusal', 'expiry'))",
      "ALTER TABLE executions ADD COLUMN sender text",
      "ALTER TABLE executions ADD COLUMN send_lease_until timestamptz",
      // Failed swaps were recorded with amounts 0 beside their slot: nothing swapped is no result.
      "DELETE FROM swap_results WHERE input_amount = 0 AND output_amount = 0",
    ],
  },
  {
    version: 5,
    name: "nonce orders (take-profit, stop-loss, OCO, trailing on a durable nonce): orders and their legs' pre-signed swaps",
    statements: [
      `CREATE TABLE nonce_orders (
        order_id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('single', 'oco', 'trailing')),
        taker text NOT NULL,
        input_mint text NOT NULL,
        output_mint text NOT NULL,
        amount numeric(20,0) NOT NULL,
        nonce_account text NOT NULL,
        nonce_value text NOT NULL,
        trail_bps integer,
        peak_out_amount numeric(20,0),
        status text NOT NULL CHECK (status IN ('issued', 'armed', 'triggered', 'landed', 'failed', 'cancelled')),
        note text,
        cancel_requested boolean NOT NULL DEFAULT false,
        triggered_leg integer,
        triggered_route integer,
        armed_at timestamptz,
        triggered_at timestamptz,
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      "CREATE INDEX nonce_orders_taker ON nonce_orders (taker, created_at DESC)",
      "CREATE INDEX nonce_orders_status ON nonce_orders (status)",
      "CREATE UNIQUE INDEX nonce_orders_one_active_per_nonce ON nonce_orders (nonce_account) WHERE status IN ('armed', 'triggered')",
      `CREATE TABLE nonce_order_legs (
        order_id text NOT NULL REFERENCES nonce_orders (order_id) ON DELETE CASCADE,
        leg_index integer NOT NULL,
        route_index integer NOT NULL,
        kind text NOT NULL CHECK (kind IN ('take_profit', 'stop_loss', 'trailing_stop')),
        trigger_out_amount numeric(20,0),
        min_out_amount numeric(20,0) NOT NULL,
        quoted_out_amount numeric(20,0) NOT NULL,
        message bytea NOT NULL,
        message_hash text NOT NULL,
        signed_transaction bytea,
        signature text,
        status text NOT NULL CHECK (status IN ('issued', 'armed', 'sent', 'landed', 'failed', 'voided', 'cancelled')),
        in_amount numeric(20,0),
        out_amount numeric(20,0),
        slot numeric(20,0),
        error text,
        PRIMARY KEY (order_id, leg_index, route_index)
      )`,
    ],
  },
  {
    version: 6,
    name: "nonce orders safe from strangers: bound to the API key that created them, counted per caller until armed, the taker's signed cancel",
    statements: [
      // The API key (its id, never the key) an order is bound to when keys are on; null without keys.
      "ALTER TABLE nonce_orders ADD COLUMN owner_key text",
      // Who created it (the key's id, or the client's address without keys): issued orders count against it until armed.
      "ALTER TABLE nonce_orders ADD COLUMN creator text",
      // The taker's signed cancel (its signature: shown, and how the landing finds it).
      "ALTER TABLE nonce_orders ADD COLUMN cancel_signature text",
      "CREATE INDEX nonce_orders_listing ON nonce_orders (taker, created_at DESC, order_id DESC) WHERE status <> 'issued'",
      "CREATE INDEX nonce_orders_issued ON nonce_orders (creator, created_at) WHERE status = 'issued'",
      "CREATE INDEX nonce_orders_changes ON nonce_orders (taker, updated_at) WHERE status <> 'issued'",
      "DROP INDEX nonce_orders_taker",
    ],
  },
  {
    version: 7,
    name: "nonce orders in groups (OTOCO, DCA), with an expiry and prices in a stablecoin",
    statements: [
      // The orders one CreateOrder made share a group (its id: the first order's); "otoco" or "dca".
      "ALTER TABLE nonce_orders ADD COLUMN group_id text",
      "ALTER TABLE nonce_orders ADD COLUMN group_kind text",
      "ALTER TABLE nonce_orders ADD COLUMN group_index integer",
      // The member that must finish first (the OTOCO's entry, the previous DCA round).
      "ALTER TABLE nonce_orders ADD COLUMN after_order text",
      // A DCA round's due time; the order's expiry.
      "ALTER TABLE nonce_orders ADD COLUMN not_before timestamptz",
      "ALTER TABLE nonce_orders ADD COLUMN expires_at timestamptz",
      // Prices in this mint: the legs' triggers are what the amount fetches in it.
      "ALTER TABLE nonce_orders ADD COLUMN price_mint text",
      // A DCA round's band upper bound (its lower bound is trigger_out_amount).
      "ALTER TABLE nonce_order_legs ADD COLUMN trigger_max_out_amount numeric(20,0)",
      "CREATE INDEX nonce_orders_group ON nonce_orders (group_id) WHERE group_id IS NOT NULL",
      // The new kinds and the expired status (the checks of migration 5, widened).
      "ALTER TABLE nonce_orders DROP CONSTRAINT nonce_orders_kind_check",
      "ALTER TABLE nonce_orders ADD CONSTRAINT nonce_orders_kind_check CHECK (kind IN ('single', 'oco', 'trailing', 'entry', 'dca_round'))",
      "ALTER TABLE nonce_orders DROP CONSTRAINT nonce_orders_status_check",
      "ALTER TABLE nonce_orders ADD CONSTRAINT nonce_orders_status_check CHECK (status IN ('issued', 'armed', 'triggered', 'landed', 'failed', 'cancelled', 'expired'))",
      "ALTER TABLE nonce_orders ADD CONSTRAINT nonce_orders_group_kind_check CHECK (group_kind IN ('otoco', 'dca'))",
      "ALTER TABLE nonce_order_legs DROP CONSTRAINT nonce_order_legs_kind_check",
      "ALTER TABLE nonce_order_legs ADD CONSTRAINT nonce_order_legs_kind_check CHECK (kind IN ('take_profit', 'stop_loss', 'trailing_stop', 'entry', 'dca_round'))",
      "ALTER TABLE nonce_order_legs DROP CONSTRAINT nonce_order_legs_status_check",
      "ALTER TABLE nonce_order_legs ADD CONSTRAINT nonce_order_legs_status_check CHECK (status IN ('issued', 'armed', 'sent', 'landed', 'failed', 'voided', 'cancelled', 'expired'))",
    ],
  },
  {
    version: 8,
    name: "nonce orders changed since a time: the keeper's refresh reads only those (10,000 armed orders read whole every 2 s blocked PGlite ~100 ms)",
    statements: ["CREATE INDEX nonce_orders_updated ON nonce_orders (updated_at) WHERE status <> 'issued'"],
  },
];
