import { describe, expect, it } from 'vitest';
import { urlVideo } from './video.ts';

const CANONICA = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

describe('urlVideo', () => {
  it.each([
    'https://youtu.be/dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ?t=42',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s',
    'https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
    'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://music.youtube.com/watch?v=dQw4w9WgXcQ&feature=share',
    'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    'https://youtube.com/shorts/dQw4w9WgXcQ?feature=share',
    'https://www.youtube.com/live/dQw4w9WgXcQ',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    'http://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'youtu.be/dQw4w9WgXcQ',
    'www.youtube.com/watch?v=dQw4w9WgXcQ',
    '  https://YouTube.com/watch?v=dQw4w9WgXcQ  ',
    'https://www.youtube.com/e/dQw4w9WgXcQ',
    'https://www.youtube.com/attribution_link?u=%2Fwatch%3Fv%3DdQw4w9WgXcQ%26feature%3Dshare',
    'https://www.youtube.com/attribution_link?a=x&u=/shorts/dQw4w9WgXcQ',
    // Older forms: embed codes with options after `&`, the API host, the site's fragment pages.
    'http://www.youtube.com/v/dQw4w9WgXcQ&hl=en_US&fs=1',
    'https://youtube.googleapis.com/v/dQw4w9WgXcQ',
    'https://www.youtube.com/?v=dQw4w9WgXcQ',
    'https://m.youtube.com/#/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/watch#!v=dQw4w9WgXcQ',
    'https://www.youtube.com/user/canal#p/u/1/dQw4w9WgXcQ',
    'https://gaming.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ&feature=share',
    // A fragment names the video only where the path and query name none.
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ#/watch?v=aaaaaaaaaaa',
    'https://www.youtube.com/embed/dQw4w9WgXcQ#p/u/1/aaaaaaaaaaa',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ#t=30',
    // The pop-up player's page, and YouTube's Brazilian domain (rules version 18).
    'https://www.youtube.com/watch_popup?v=dQw4w9WgXcQ',
    'https://www.youtube.com.br/watch?v=dQw4w9WgXcQ',
    'youtube.com.br/shorts/dQw4w9WgXcQ',
  ])('turns %s into the watch?v= form', (link) => {
    expect(urlVideo(link)).toBe(CANONICA);
  });

  it('keeps ids with - and _', () => {
    expect(urlVideo('https://youtu.be/a-b_c1D2e3F')).toBe('https://www.youtube.com/watch?v=a-b_c1D2e3F');
  });

  it.each([
    'https://vimeo.com/123456789',
    'https://www.youtube.com/watch?v=curto',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQX',
    'https://www.youtube.com/watch',
    'https://www.youtube.com/channel/UCdQw4w9WgXcQ',
    'https://www.youtube.com/embed/videoseries?list=PL123',
    'https://youtube.com.golpe.example/watch?v=dQw4w9WgXcQ',
    'ftp://youtu.be/dQw4w9WgXcQ',
    'não é um link',
    '',
    // A share link's target is a path on YouTube, read once.
    'https://www.youtube.com/attribution_link?u=https://vimeo.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/attribution_link?u=%2Fattribution_link%3Fu%3D%252Fwatch%253Fv%253DdQw4w9WgXcQ',
    'https://www.youtube.com/attribution_link',
    'https://www.youtube.com/',
    'https://www.youtube.com/user/canal#p/u/1',
    'https://www.youtube.com/#/attribution_link?u=%2Fwatch%3Fv%3DdQw4w9WgXcQ',
    // A share link's or a fragment's path that no URL can hold (`//[`: an empty host, then a bad one).
    'https://www.youtube.com/#//[',
    'https://www.youtube.com/#//a b',
    'https://www.youtube.com/attribution_link?u=//[',
  ])('gives null for %s', (link) => {
    expect(urlVideo(link)).toBeNull();
  });

  it('gives null for null', () => {
    expect(urlVideo(null)).toBeNull();
  });
});
