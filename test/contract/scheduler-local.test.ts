import t from 'tap';
import { createLocalScheduler } from '../../src/adapters/local-scheduler/local-scheduler.js';
import { schedulerContract } from './scheduler.js';

// The reference behaviour: the in-process scheduler of embedded mode.
schedulerContract(t, 'local', (options) => createLocalScheduler(options));
