import type { SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';

const REF = /"#\/components\/schemas\/([^"]+)"/g;

const refsIn = (value: unknown) =>
  [...JSON.stringify(value ?? null).matchAll(REF)].map((m) => decodeURIComponent(m[1]!));

/**
 * The document's components: every zod schema with an id (`.meta({ id })`), as the type
 * provider builds them, keeping only those the document uses. (The type provider emits each id
 * twice, as an output schema and as `<id>Input`; responses use only the output ones.)
 */
export const transformObject: SwaggerTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input) as { components?: { schemas?: Record<string, unknown> } } & Record<
    string,
    unknown
  >;
  const schemas = doc.components?.schemas;
  if (!schemas) return doc as ReturnType<SwaggerTransformObject>;
  const { components, ...rest } = doc;
  const used = new Set<string>();
  const queue = refsIn({ ...rest, components: { ...components, schemas: undefined } });
  while (queue.length) {
    const name = queue.pop()!;
    if (used.has(name) || !(name in schemas)) continue;
    used.add(name);
    queue.push(...refsIn(schemas[name]));
  }
  const kept = Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => used.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return { ...doc, components: { ...components, schemas: kept } } as ReturnType<SwaggerTransformObject>;
};
