import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type * as C from '@shared/contract';
import * as R from '@shared/contract/responses';
import documentedResponses from '../../server/openapi/attach';
import { transformObject } from '../../server/openapi/document';
import { transform } from '../../server/openapi/requests';
import { SIGNED_IN_OR_API, data, fails } from '../../server/openapi/responses';
import { responseSerializerCompiler } from '../../server/openapi/serializer';

/**
 * One source for what the API answers (issue 16): a route declares a zod schema beside its
 * handler; the OpenAPI document, the check of every answer in test, and the client types (z.infer)
 * all come from it. So a field added to the schema reaches all three with no other edit.
 * (The expectTypeOf lines are checked by `tsc --noEmit`, which covers tests/.)
 */

/**
 * A stand-in for an entity of shared/contract/responses/, before and after a field is added to
 * it. (Two ids only because both versions live in this one process: zod's registry holds one
 * schema per id.)
 */
const widget = z.strictObject({ id: R.id, nickname: z.string() }).meta({ id: 'WidgetBefore' });
const widgetWithColour = z
  .strictObject({ id: R.id, nickname: z.string(), colour: z.string().describe('The field just added') })
  .meta({ id: 'WidgetAfter' });
/** What a client imports, derived as shared/contract derives ApiCard and the others. */
type Widget = z.infer<typeof widgetWithColour>;

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
};

/** The app's OpenAPI pipeline and answer checks (as in test), with one route declaring its answer with `schema`. */
async function appAnswering(schema: z.ZodType, answer: unknown) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler('enforce', app.log));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'test', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform,
    transformObject,
  });
  await app.register(documentedResponses, { env: 'test' });
  await app.register(
    async (a) =>
      a.get(
        '/widgets/:id',
        {
          schema: {
            operationId: 'getWidget',
            summary: 'Get a widget',
            security: [{ bearer: [] }],
            response: { 200: data(schema, 'The widget.'), ...fails(SIGNED_IN_OR_API) },
          },
        },
        async () => answer,
      ),
    { prefix: '/api/v1' },
  );
  await app.ready();
  return { app, doc: app.swagger() as unknown as Doc };
}

describe('a field added to a response schema', () => {
  it('appears in the OpenAPI document, as a required property of the entity', async () => {
    const before = await appAnswering(widget, null);
    const after = await appAnswering(widgetWithColour, null);
    const [was, is] = [before.doc.components.schemas.WidgetBefore!, after.doc.components.schemas.WidgetAfter!];
    expect(Object.keys(was.properties!)).toEqual(['id', 'nickname']);
    expect(Object.keys(is.properties!)).toEqual(['id', 'nickname', 'colour']);
    expect(is.required).toContain('colour');
    expect(is.properties!.colour).toEqual({ type: 'string', description: 'The field just added' });
    // the route's answer refers to the entity, so nothing else in the document changed
    const paths = (doc: Doc) => JSON.stringify(doc.paths).replace(/Widget(Before|After)/g, 'Widget');
    expect(paths(after.doc)).toBe(paths(before.doc));
    expect(paths(after.doc)).toContain('#/components/schemas/Widget');
    await Promise.all([before.app.close(), after.app.close()]);
  });

  it('is checked in every answer in test: an answer without it fails', async () => {
    const item = { id: crypto.randomUUID(), nickname: 'Travel' };
    const withIt = await appAnswering(widgetWithColour, { data: { ...item, colour: 'teal' } });
    expect((await withIt.app.inject('/api/v1/widgets/1')).statusCode).toBe(200);
    const without = await appAnswering(widgetWithColour, { data: item });
    const quiet = console.error;
    console.error = () => undefined;
    expect((await without.app.inject('/api/v1/widgets/1')).statusCode).toBe(500);
    console.error = quiet;
    await Promise.all([withIt.app.close(), without.app.close()]);
  });

  it('appears in the client type', () => {
    expectTypeOf<Widget>().toEqualTypeOf<{ id: string; nickname: string; colour: string }>();
    expectTypeOf<Omit<Widget, 'colour'>>().toEqualTypeOf<z.infer<typeof widget>>();
  });
});

describe('the client types are the response schemas, z.infer, with nothing written beside them', () => {
  it('types every entity and answer from its schema', () => {
    expectTypeOf<C.ApiUser>().toEqualTypeOf<z.infer<typeof R.apiUser>>();
    expectTypeOf<C.ApiCompany>().toEqualTypeOf<z.infer<typeof R.apiCompany>>();
    expectTypeOf<C.LoginChallenge>().toEqualTypeOf<z.infer<typeof R.loginChallenge>>();
    expectTypeOf<C.ApiVerificationStatus>().toEqualTypeOf<z.infer<typeof R.apiVerificationStatus>>();
    expectTypeOf<C.ProfilePayload>().toEqualTypeOf<z.infer<typeof R.profilePayload>>();
    expectTypeOf<C.SessionPayload>().toEqualTypeOf<z.infer<typeof R.sessionPayload>>();
    expectTypeOf<C.CompanyUserRow>().toEqualTypeOf<z.infer<typeof R.companyUserRow>>();
    expectTypeOf<C.ApiAdmin>().toEqualTypeOf<z.infer<typeof R.apiAdmin>>();
    expectTypeOf<C.ApiAuditEntry>().toEqualTypeOf<z.infer<typeof R.apiAuditEntry>>();
    expectTypeOf<C.ApiIndividualCustomer>().toEqualTypeOf<z.infer<typeof R.apiIndividualCustomer>>();
    expectTypeOf<C.ApiCompanyCustomer>().toEqualTypeOf<z.infer<typeof R.apiCompanyCustomer>>();
    expectTypeOf<C.ApiTopup>().toEqualTypeOf<z.infer<typeof R.apiTopup>>();
    expectTypeOf<C.ChainCheck>().toEqualTypeOf<z.infer<typeof R.chainCheck>>();
    expectTypeOf<C.DepositAddress>().toEqualTypeOf<z.infer<typeof R.depositAddress>>();
    expectTypeOf<C.ApiChainDeposit>().toEqualTypeOf<z.infer<typeof R.apiChainDeposit>>();
    expectTypeOf<C.TopupInstructions>().toEqualTypeOf<z.infer<typeof R.topupInstructions>>();
    expectTypeOf<C.TopupConfirmed>().toEqualTypeOf<z.infer<typeof R.topupConfirmed>>();
    expectTypeOf<C.TopupTotals>().toEqualTypeOf<z.infer<typeof R.topupTotals>>();
    expectTypeOf<C.TransferResult>().toEqualTypeOf<z.infer<typeof R.transferDone>>();
    expectTypeOf<C.ApiWalletTransaction>().toEqualTypeOf<z.infer<typeof R.apiWalletTransaction>>();
    expectTypeOf<C.WalletTransactionTotals>().toEqualTypeOf<z.infer<typeof R.walletTransactionTotals>>();
    expectTypeOf<C.ApiWalletTransfer>().toEqualTypeOf<z.infer<typeof R.apiWalletTransfer>>();
    expectTypeOf<C.MomoDetails>().toEqualTypeOf<z.infer<typeof R.momoDetails>>();
    expectTypeOf<C.MomoUser>().toEqualTypeOf<z.infer<typeof R.momoUser>>();
    expectTypeOf<C.ApiFee>().toEqualTypeOf<z.infer<typeof R.apiFee>>();
    expectTypeOf<C.ApiCard>().toEqualTypeOf<z.infer<typeof R.apiCard>>();
    expectTypeOf<C.ApiCardDetail>().toEqualTypeOf<z.infer<typeof R.apiCardDetail>>();
    expectTypeOf<C.ApiCardTransaction>().toEqualTypeOf<z.infer<typeof R.apiCardTransaction>>();
    expectTypeOf<C.ApiCardAllowance>().toEqualTypeOf<z.infer<typeof R.apiCardAllowance>>();
    expectTypeOf<C.MasterBalances>().toEqualTypeOf<z.infer<typeof R.masterBalances>>();
    expectTypeOf<C.ApiDocument>().toEqualTypeOf<z.infer<typeof R.apiDocument>>();
    expectTypeOf<C.ApiVerificationRow>().toEqualTypeOf<z.infer<typeof R.apiVerificationRow>>();
    expectTypeOf<C.ApiVerificationDetail>().toEqualTypeOf<z.infer<typeof R.apiVerificationDetail>>();
    expectTypeOf<C.ApiClientCredentials>().toEqualTypeOf<z.infer<typeof R.apiClientCredentials>>();
    expectTypeOf<C.ApiCallbackDetails>().toEqualTypeOf<z.infer<typeof R.apiCallbackDetails>>();
    expectTypeOf<C.ApiThirdParty>().toEqualTypeOf<z.infer<typeof R.apiThirdParty>>();
    expectTypeOf<C.ApiWebhookEvent>().toEqualTypeOf<z.infer<typeof R.apiWebhookEvent>>();
    expectTypeOf<C.ApiReconciliationRun>().toEqualTypeOf<z.infer<typeof R.apiReconciliationRun>>();
    expectTypeOf<C.ApiIssuerOperation>().toEqualTypeOf<z.infer<typeof R.apiIssuerOperation>>();
    expectTypeOf<C.ApiNotification>().toEqualTypeOf<z.infer<typeof R.apiNotification>>();
    expectTypeOf<C.ApiNotificationSetting>().toEqualTypeOf<z.infer<typeof R.apiNotificationSetting>>();
    expectTypeOf<C.NotificationPage>().toEqualTypeOf<z.infer<typeof R.notificationPage>>();
    expectTypeOf<C.PageLinks>().toEqualTypeOf<z.infer<typeof R.pageLinks>>();
    expectTypeOf<C.ApiErrorBody>().toEqualTypeOf<z.infer<typeof R.errorBody>>();
    expectTypeOf<C.Paged<C.ApiCard>>().toEqualTypeOf<z.infer<ReturnType<typeof R.paged<typeof R.apiCard>>>>();
  });
});
