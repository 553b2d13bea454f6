import { describe, expect, it } from 'vitest';
import { urlTourVirtual } from './tour-virtual.ts';

describe('urlTourVirtual', () => {
  it('keeps an https: address', () => {
    expect(urlTourVirtual('https://my.matterport.com/show/?m=abc123')).toBe('https://my.matterport.com/show/?m=abc123');
  });

  it('trims and normalises the address', () => {
    expect(urlTourVirtual('  HTTPS://Tour.Exemplo.com  ')).toBe('https://tour.exemplo.com/');
  });

  it('drops an address carrying a user name or password, which partners must never read', () => {
    expect(urlTourVirtual('https://corretor:s3nh4@tour.exemplo.com/AP1234')).toBeNull();
    expect(urlTourVirtual('https://corretor@tour.exemplo.com/AP1234')).toBeNull();
    expect(urlTourVirtual('https://:s3nh4@tour.exemplo.com/AP1234')).toBeNull();
  });

  it('drops an http: tour link', () => {
    expect(urlTourVirtual('http://tour.exemplo.com/AP1234')).toBeNull();
  });

  it('drops other schemes, text that is not an address, and empty values', () => {
    expect(urlTourVirtual('javascript:alert(1)')).toBeNull();
    expect(urlTourVirtual('tour.exemplo.com/AP1234')).toBeNull();
    expect(urlTourVirtual('   ')).toBeNull();
    expect(urlTourVirtual(null)).toBeNull();
  });
});
