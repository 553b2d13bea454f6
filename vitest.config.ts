// One vitest configuration, two tiers: `unit` (beside the code, no I/O beyond in-memory SQLite)
// and `integration` (test/: real Kafka and Redis started once by the global setup).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Fast tests first; the integration project runs after, with its own worker limit.
          sequence: { groupOrder: 0 },
          include: ['packages/**/src/**/*.test.ts', 'services/**/src/**/*.test.ts'],
          // The randomised tests (thousands of cases) take 1–2 s alone, and took 6 on this shared
          // 2-core machine while a benchmark ran: vitest's 5 s would fail them for the load.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['test/**/*.int.test.ts', 'test/**/*.e2e.test.ts'],
          globalSetup: ['./test/infra/global-setup.ts'],
          // Broker round trips, consumer group joins and child processes take seconds, not ms.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // The CI machines have 2 cores, and the broker's JVM needs one of them.
          maxWorkers: 2,
        },
      },
    ],
  },
});
