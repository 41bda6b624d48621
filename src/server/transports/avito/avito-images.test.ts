import { describe, expect, it } from 'vitest';
import { NotAnImage, assertPictureByName } from './avito-images.ts';

describe('what Avito’s messenger carries', () => {
  it.each([
    [{ url: 'https://crm.example.com/f/1', mimetype: 'image/jpeg' }],
    [{ url: 'https://crm.example.com/f/1', name: 'bike.PNG' }],
    [{ url: 'https://crm.example.com/photos/bike.heic' }],
    // Nothing tells the type: the file is fetched, and told by its server's.
    [{ url: 'https://crm.example.com/f/1' }],
  ])('lets %o through to be fetched', (file) => {
    expect(() => assertPictureByName(file)).not.toThrow();
  });

  it.each([
    [{ url: 'https://crm.example.com/f/1', mimetype: 'application/pdf' }],
    [{ url: 'https://crm.example.com/f/1', name: 'offer.pdf' }],
    [{ url: 'https://crm.example.com/f/clip.mp4' }],
    [{ url: 'https://crm.example.com/f/1.jpg', mimetype: 'image/webp' }],
  ])('refuses %o before anything is fetched', (file) => {
    expect(() => assertPictureByName(file)).toThrow(NotAnImage);
  });
});
