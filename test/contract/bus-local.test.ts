import t from 'tap';
import { createLocalBus } from '../../src/adapters/local-bus/local-bus.js';
import { busContract } from './bus.js';

// The reference behaviour: one in-process bus is both the publishing and the listening view.
busContract(t, 'local', async (onError) => {
  const bus = createLocalBus(onError);
  return { publisher: bus, listener: bus, close: () => bus.close() };
});
