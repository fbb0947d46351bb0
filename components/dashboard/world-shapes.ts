import { geoEqualEarth, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import countries from 'world-atlas/countries-110m.json';

/**
 * The world map's shapes, drawn on the server: Natural Earth's land and borders at 1:110 million (world-atlas, bundled
 * with the service, so nothing is fetched by anyone), in the Equal Earth projection, which keeps areas true. Only
 * the SVG paths reach the browser.
 */

export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 467;

type Topology = Parameters<typeof mesh>[0];
const world = countries as unknown as Topology;
const projection = geoEqualEarth().fitExtent(
  [
    [2, 2],
    [MAP_WIDTH - 2, MAP_HEIGHT - 2],
  ],
  { type: 'Sphere' },
);
const path = geoPath(projection);

let outlines: { sphere: string; land: string; borders: string } | null = null;

/** The globe's outline, its land and the borders between countries, as SVG path data (computed once). */
export function worldOutlines(): { sphere: string; land: string; borders: string } {
  if (!outlines) {
    const land = world.objects.land;
    const borders = world.objects.countries;
    if (!land || !borders) throw new Error('world-atlas has no land or countries');
    outlines = {
      sphere: path({ type: 'Sphere' }) ?? '',
      land: path(feature(world, land)) ?? '',
      borders: path(mesh(world, borders as Parameters<typeof mesh>[1], (a, b) => a !== b)) ?? '',
    };
  }
  return outlines;
}

/** Where a latitude and longitude fall on the map, or null off it. */
export function mapPoint(latitude: number, longitude: number): { x: number; y: number } | null {
  const p = projection([longitude, latitude]);
  return p ? { x: Math.round(p[0] * 10) / 10, y: Math.round(p[1] * 10) / 10 } : null;
}
