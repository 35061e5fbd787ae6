package dev.nona.modelaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ColocationTest {
    /** Servers 0-4: 0, 2 and 4 hold the model, with 3, 1 and 1 ongoing requests; 1 and 3 hold nothing. */
    private static final boolean[] HOLDS = {true, false, true, false, true};
    private static final int[] ONGOING = {3, 0, 1, 0, 1};

    @Test
    void locateProxy_warmUnderTheTargetLeastOngoing_tiesToTheLowestIndex() {
        // server 0 is at the target of 3; 2 and 4 tie at 1 ongoing: the lower index wins
        assertThat(Colocation.locateProxy(5, s -> HOLDS[s], s -> ONGOING[s], 3, s -> true)).isEqualTo(2);
        // an eligibility filter (e.g. free cores, or memory) is applied on top
        assertThat(Colocation.locateProxy(5, s -> HOLDS[s], s -> ONGOING[s], 3, s -> s != 2)).isEqualTo(4);
        // a target of 1: nobody holding the model is under it
        assertThat(Colocation.locateProxy(5, s -> HOLDS[s], s -> ONGOING[s], 1, s -> true)).isEqualTo(-1);
        assertThatThrownBy(() -> Colocation.locateProxy(5, s -> true, s -> 0, 0, s -> true))
                .hasMessageContaining("targetOngoingRequests");
    }

    @Test
    void locateProxy_asksEligibleOnlyOfWarmServersUnderTheTarget() {
        List<Integer> asked = new ArrayList<>();
        Colocation.locateProxy(5, s -> HOLDS[s], s -> ONGOING[s], 3, s -> asked.add(s));
        assertThat(asked).containsExactly(2, 4);
    }

    @Test
    void elsewhere_prefersServersWithoutTheModel_oneDraw() {
        SplittableRandom random = new SplittableRandom(7);
        int[] picks = new int[5];
        for (int i = 0; i < 2_000; i++) {
            picks[Colocation.elsewhere(5, s -> true, s -> HOLDS[s], random)]++;
        }
        assertThat(picks[0] + picks[2] + picks[4]).isZero();
        assertThat(picks[1]).isBetween(900, 1100);
        // the same draw as nextInt over the cold servers in index order
        SplittableRandom a = new SplittableRandom(3);
        SplittableRandom b = new SplittableRandom(3);
        int[] cold = {1, 3};
        for (int i = 0; i < 50; i++) {
            assertThat(Colocation.elsewhere(5, s -> true, s -> HOLDS[s], a)).isEqualTo(cold[b.nextInt(2)]);
        }
    }

    @Test
    void elsewhere_everyEligibleServerHoldsIt_anyEligible_noneEligible_minusOne() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 100; i++) {
            assertThat(Colocation.elsewhere(5, s -> HOLDS[s], s -> HOLDS[s], random)).isIn(0, 2, 4);
        }
        assertThat(Colocation.elsewhere(5, s -> false, s -> HOLDS[s], random)).isEqualTo(-1);
    }
}
