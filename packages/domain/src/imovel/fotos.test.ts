import { describe, expect, it } from 'vitest';
import { mapearFotos, urlDaFoto } from './fotos.ts';
import { foto } from './registro-de-teste.ts';

const BASE = 'https://cdn.exemplo.com/wm';

describe('mapearFotos', () => {
  it('leaves out a photo without a storage key (there is no address to give) and renumbers the rest', () => {
    const fotos = mapearFotos([foto({ arquivo: '  ', principal: true }), foto({ arquivo: 'b.jpg' })], BASE);
    expect(fotos).toEqual([{ url: `${BASE}/b.jpg`, ordem: 1, principal: true }]);
  });

  it('leaves out a photo whose storage key names a folder: its address would be a folder, shared by every such photo (rules version 18)', () => {
    const fotos = mapearFotos(['/', '///', 'imoveis/AP1/', 'imoveis/AP1/01.jpg'].map((arquivo) => foto({ arquivo })), BASE);
    expect(fotos.map((f) => f.url)).toEqual([`${BASE}/imoveis/AP1/01.jpg`]);
  });

  it('leaves out a photo whose storage key has a . or .. segment: its address would resolve to another key', () => {
    const fotos = mapearFotos(
      ['../../admin/a.jpg', 'imoveis/../b.jpg', '..', 'imoveis/..', 'imoveis/./c.jpg', '.', './f.jpg', 'imoveis/..d.jpg', 'imoveis/e..jpg'].map((arquivo) => foto({ arquivo })),
      BASE,
    );
    expect(fotos.map((f) => f.url)).toEqual([`${BASE}/imoveis/..d.jpg`, `${BASE}/imoveis/e..jpg`]);
  });

  it('leaves out a photo whose storage key holds half of a UTF-16 pair: no URL can encode it (encodeURIComponent throws)', () => {
    const fotos = mapearFotos(['a\ud800.jpg', 'b\udc00.jpg', 'c\ud83d\ude00.jpg'].map((arquivo) => foto({ arquivo })), BASE);
    expect(fotos.map((f) => f.url)).toEqual([`${BASE}/c%F0%9F%98%80.jpg`]);
  });

  it('shows only public photos', () => {
    const fotos = mapearFotos([foto({ arquivo: 'a.jpg' }), foto({ arquivo: 'privada.jpg', publica: false })], BASE);
    expect(fotos.map((f) => f.url)).toEqual([`${BASE}/a.jpg`]);
  });

  it('sorts by ordem, then by arquivo, and renumbers from 1', () => {
    const fotos = mapearFotos(
      [foto({ arquivo: 'c.jpg', ordem: 5 }), foto({ arquivo: 'b.jpg', ordem: 2 }), foto({ arquivo: 'a.jpg', ordem: 5 })],
      BASE,
    );
    expect(fotos.map((f) => [f.url, f.ordem])).toEqual([
      [`${BASE}/b.jpg`, 1],
      [`${BASE}/a.jpg`, 2],
      [`${BASE}/c.jpg`, 3],
    ]);
  });

  it('renumbers a photo with ordem 0 (or negative) from 1', () => {
    const fotos = mapearFotos([foto({ arquivo: 'x.jpg', ordem: 0 }), foto({ arquivo: 'y.jpg', ordem: -3 })], BASE);
    expect(fotos.map((f) => [f.url, f.ordem])).toEqual([
      [`${BASE}/y.jpg`, 1],
      [`${BASE}/x.jpg`, 2],
    ]);
  });

  it('sorts an ordem too large for a double (read as Infinity) after every other, then by arquivo', () => {
    const fotos = mapearFotos(
      [foto({ arquivo: 'b.jpg', ordem: Infinity }), foto({ arquivo: 'a.jpg', ordem: Infinity }), foto({ arquivo: 'c.jpg', ordem: 7 }), foto({ arquivo: 'd.jpg', ordem: -Infinity })],
      BASE,
    );
    expect(fotos.map((f) => [f.url, f.ordem])).toEqual([
      [`${BASE}/d.jpg`, 1],
      [`${BASE}/c.jpg`, 2],
      [`${BASE}/a.jpg`, 3],
      [`${BASE}/b.jpg`, 4],
    ]);
  });

  it('keeps exactly one principal, the first marked in the new order, when two photos are marked', () => {
    const fotos = mapearFotos(
      [foto({ arquivo: 'b.jpg', ordem: 3, principal: true }), foto({ arquivo: 'a.jpg', ordem: 2, principal: true }), foto({ arquivo: 'c.jpg', ordem: 1 })],
      BASE,
    );
    expect(fotos.map((f) => f.principal)).toEqual([false, true, false]);
  });

  it('makes the first photo principal when none is marked', () => {
    const fotos = mapearFotos([foto({ arquivo: 'b.jpg', ordem: 2 }), foto({ arquivo: 'a.jpg', ordem: 1 })], BASE);
    expect(fotos.map((f) => f.principal)).toEqual([true, false]);
  });

  it('ignores the principal mark of a photo that is not public', () => {
    const fotos = mapearFotos([foto({ arquivo: 'a.jpg', ordem: 1, principal: true, publica: false }), foto({ arquivo: 'b.jpg', ordem: 2 })], BASE);
    expect(fotos).toEqual([{ url: `${BASE}/b.jpg`, ordem: 1, principal: true }]);
  });

  it('gives an empty list when there is no public photo', () => {
    expect(mapearFotos([], BASE)).toEqual([]);
    expect(mapearFotos([foto({ publica: false })], BASE)).toEqual([]);
  });
});

describe('urlDaFoto', () => {
  it('percent-encodes each path segment of the storage key and keeps the slashes between them', () => {
    expect(urlDaFoto(BASE, 'imoveis/AP 12#3/fachada nova?.jpg', null)).toBe(`${BASE}/imoveis/AP%2012%233/fachada%20nova%3F.jpg`);
    expect(urlDaFoto(BASE, 'imoveis/São Paulo/sala.jpg', null)).toBe(`${BASE}/imoveis/S%C3%A3o%20Paulo/sala.jpg`);
  });

  it('joins base and key with a single slash whatever trailing slash the base has', () => {
    const esperado = 'https://cdn.exemplo.com/wm/imoveis/01.jpg';
    expect(urlDaFoto('https://cdn.exemplo.com/wm', 'imoveis/01.jpg', null)).toBe(esperado);
    expect(urlDaFoto('https://cdn.exemplo.com/wm/', 'imoveis/01.jpg', null)).toBe(esperado);
    expect(urlDaFoto('https://cdn.exemplo.com/wm//', '/imoveis/01.jpg', null)).toBe(esperado);
  });

  it('adds the epoch milliseconds of alterada_em, so a replaced image gets a new address', () => {
    expect(urlDaFoto(BASE, 'a.jpg', '2026-11-20T10:00:00.000-03:00')).toBe(`${BASE}/a.jpg?v=1795179600000`);
  });

  it('gives the same address for the same instant written with another offset', () => {
    expect(urlDaFoto(BASE, 'a.jpg', '2026-11-20T13:00:00Z')).toBe(urlDaFoto(BASE, 'a.jpg', '2026-11-20T10:00:00-03:00'));
  });
});
