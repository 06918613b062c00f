import t from 'tap';
import { classifyAddress, isPublicAddress, type AddressRange } from '../../../src/adapters/undici/address-policy.js';

const table: readonly [address: string, range: AddressRange][] = [
  // IPv4: public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.215.14', 'public'],
  ['100.63.255.255', 'public'], // just below CGNAT
  ['100.128.0.0', 'public'], // just above CGNAT
  ['172.15.255.255', 'public'], // just below 172.16/12
  ['172.32.0.0', 'public'], // just above 172.16/12
  ['223.255.255.255', 'public'], // just below multicast
  // IPv4: refused
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.255', 'shared'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6: public
  ['2606:4700::1', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2a00:1450:4001:82a::200e', 'public'],
  ['::ffff:8.8.8.8', 'public'], // mapped public IPv4
  ['64:ff9b::808:808', 'public'], // NAT64 of 8.8.8.8
  ['2002:808:808::1', 'public'], // 6to4 of 8.8.8.8
  // IPv6: refused
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'], // the hex form WHATWG URL produces
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:10.0.0.1', 'private'],
  ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1
  ['64:ff9b::a9fe:a9fe', 'link-local'], // NAT64 of 169.254.169.254
  ['64:ff9b::192.168.0.1', 'private'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
  ['2002:a00:1::', 'private'], // 6to4 of 10.0.0.1
  ['2002:a9fe:a9fe::1', 'link-local'],
  ['::127.0.0.1', 'reserved'], // deprecated IPv4-compatible
  ['100::1', 'reserved'],
  ['2001::1', 'reserved'], // Teredo
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['4000::1', 'reserved'], // outside 2000::/3
];

t.test('each address lands in its range, and only public ones are allowed', async (t) => {
  for (const [address, range] of table) {
    t.equal(classifyAddress(address), range, `${address} is ${range}`);
    t.equal(isPublicAddress(address), range === 'public', `${address} ${range === 'public' ? 'is' : 'is not'} allowed`);
  }
});

t.test('a host name or garbage is not an address and is never allowed', async (t) => {
  for (const text of ['localhost', 'example.com', '', '1.2.3', '1.2.3.4.5', '::ffff:1.2.3', '[::1', '0x7f000001', '12345::']) {
    t.equal(classifyAddress(text), undefined, `${JSON.stringify(text)} is not an address`);
    t.equal(isPublicAddress(text), false, `${JSON.stringify(text)} is not allowed`);
  }
});
