import { ChartTable } from '@/components/ui/chart-table';
import { plural } from '@/components/ui/words';
import type { PublicDashboard } from '@/lib/stats/contract';
import styles from './dashboard.module.css';
import { MAP_HEIGHT, MAP_WIDTH, mapPoint, worldOutlines } from './world-shapes';

/** Squares listed in the table under the map: the rest are on the map only, and in the JSON answer. */
const TABLE_PLACES = 100;

const degrees = (value: number, positive: string, negative: string) => `${Math.abs(value)}° ${value >= 0 ? positive : negative}`;
/** A one-degree square by its middle, as people read coordinates. */
const placeName = (p: { latitude: number; longitude: number }) => `${degrees(p.latitude, 'N', 'S')}, ${degrees(p.longitude, 'E', 'W')}`;

const round = (n: number) => Math.round(n * 10) / 10;
/**
 * A circle as two arcs of a path: thousands of places drawn as one element rather than one each, which a phone lays
 * out and paints at once.
 */
const circlePath = ({ x, y, r }: { x: number; y: number; r: number }) =>
  `M${round(x - r)} ${round(y)}a${round(r)} ${round(r)} 0 1 0 ${round(2 * r)} 0a${round(r)} ${round(r)} 0 1 0 ${round(-2 * r)} 0z`;

/**
 * Where samples were collected: a circle on each one-degree square that has samples, its area growing with their
 * number, over the land and borders of Natural Earth (drawn on the server, no tiles), with the squares as a table.
 */
export function CollectionMap({ places }: { places: PublicDashboard['places'] }) {
  if (places.length === 0) return <p className="muted">No public sample gives its collection coordinates yet.</p>;
  const { sphere, land, borders } = worldOutlines();
  const most = Math.max(...places.map((p) => p.samples));
  const total = places.reduce((sum, p) => sum + p.samples, 0);
  // the largest circles drawn first, so that the small ones stay visible on top
  const dots = [...places]
    .sort((a, b) => b.samples - a.samples)
    .flatMap((p) => {
      const at = mapPoint(p.latitude, p.longitude);
      return at ? [{ ...at, r: 2.5 + 12 * Math.sqrt(p.samples / most) }] : [];
    });
  const shown = places.slice(0, TABLE_PLACES);
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className={styles.map}
        viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`}
        role="img"
        aria-labelledby="collection-map-title collection-map-desc"
      >
        <title id="collection-map-title">Where samples were collected</title>
        <desc id="collection-map-desc">
          {`${plural(total, 'sample')} on ${plural(places.length, 'one-degree square')}; the most, ${most}, near ${placeName(places[0] ?? { latitude: 0, longitude: 0 })}. The table below lists the squares.`}
        </desc>
        <path d={sphere} className={styles.sea} />
        <path d={land} className={styles.land} />
        <path d={borders} className={styles.borders} />
        <path d={dots.map(circlePath).join('')} className={styles.place} />
      </svg>
      <figcaption className="muted">
        Land and borders: Natural Earth (public domain), 1:110 million, in the Equal Earth projection, which draws the poles as the flat
        lines at the top and bottom. Each circle is a one-degree square of latitude and longitude; its area grows with the number of samples
        collected there.
      </figcaption>
      <ChartTable
        caption={
          places.length > TABLE_PLACES
            ? `Samples by collection place (the ${TABLE_PLACES} squares with the most)`
            : 'Samples by collection place (one-degree squares)'
        }
        unit="samples"
        labelHeading="Square (its middle)"
        rows={shown.map((p) => ({ label: placeName(p), values: { samples: p.samples } }))}
        series={[{ key: 'samples', label: 'samples' }]}
      />
    </figure>
  );
}
