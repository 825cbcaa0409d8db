package io.claimedoutbox.conformance;

import io.claimedoutbox.conformance.rules.AppendRules;
import io.claimedoutbox.conformance.rules.BadInputRules;
import io.claimedoutbox.conformance.rules.BatchTransitionRules;
import io.claimedoutbox.conformance.rules.ClaimingRules;
import io.claimedoutbox.conformance.rules.CompatibilityRules;
import io.claimedoutbox.conformance.rules.ExactValueRules;
import io.claimedoutbox.conformance.rules.ConcurrentHistoryRules;
import io.claimedoutbox.conformance.rules.FaultRules;
import io.claimedoutbox.conformance.rules.OperationRules;
import io.claimedoutbox.conformance.rules.OrderingRules;
import io.claimedoutbox.conformance.rules.TransitionOutcomeRules;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The whole conformance suite. An adapter's test class extends it and supplies its fixture:
 *
 * <pre>{@code
 * class MyStoreConformanceTest extends OutboxStoreConformanceSuite {
 *   private static final OutboxStoreFixture FIXTURE = new MyStoreFixture();
 *   @Override protected OutboxStoreFixture fixture() { return FIXTURE; }
 * }
 * }</pre>
 *
 * <p>Each nested group holds the rules of one area; the rules are listed in {@link Rule} and in
 * the module's README. Return the same fixture instance every time: the suite calls
 * {@link OutboxStoreFixture#clean()} before each test, so a fixture may keep its connections open.
 */
public abstract class OutboxStoreConformanceSuite {

  /** @return the adapter's fixture; the same instance on every call */
  protected abstract OutboxStoreFixture fixture();

  /** Rules A1–A4. */
  @Nested
  @DisplayName("A · appending, reading, deleting")
  class Appending extends AppendRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules C1–C10. */
  @Nested
  @DisplayName("C · claiming and leases")
  class Claiming extends ClaimingRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules O1–O4. */
  @Nested
  @DisplayName("O · ordering keys")
  class Ordering extends OrderingRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules E1–E2. */
  @Nested
  @DisplayName("E · exact values")
  class ExactValues extends ExactValueRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules M1–M6. */
  @Nested
  @DisplayName("M · operations: counts, dead letters, requeue, purge")
  class Operations extends OperationRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules T1–T10. */
  @Nested
  @DisplayName("T · transition outcomes")
  class TransitionOutcomes extends TransitionOutcomeRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules T11–T13. */
  @Nested
  @DisplayName("T · batched transitions")
  class BatchedTransitions extends BatchTransitionRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rule K1. */
  @Nested
  @DisplayName("K · compatibility methods")
  class Compatibility extends CompatibilityRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules B1–B9. */
  @Nested
  @DisplayName("B · bad input and bad data")
  class BadInput extends BadInputRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rules F1–F5. */
  @Nested
  @DisplayName("F · faults on the wire")
  class Faults extends FaultRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }

  /** Rule H1. */
  @Nested
  @DisplayName("H · concurrent history")
  class ConcurrentHistory extends ConcurrentHistoryRules {
    @Override
    protected OutboxStoreFixture fixture() {
      return OutboxStoreConformanceSuite.this.fixture();
    }
  }
}
