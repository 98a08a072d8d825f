import { expect } from 'chai';
import { OPERATIONS } from '../../generated/operations.js';
import { bodyAjv, readBundledContract } from '../../src/http/contract.js';
import { contractTools, defaultAreas, knownAreas, areaOf } from '../../src/mcp/tools.js';
import { partlyBuiltOperations, unbuiltOperations } from '../../src/modules/index.js';

describe('MCP tools — made from the contract', () => {
  const document = readBundledContract();
  const built = { operations: [], partly: {} };

  it('are the operations of the contract, each named by its operationId, but the MCP operation and the bodies that are not JSON', () => {
    const names = contractTools(document, built).map(({ tool }) => tool.name);
    const notJson = ['uploadMedia', 'addAudiencePeople', 'removeAudiencePeople', 'appendResumableUpload'];
    expect([...names].sort()).to.deep.equal(
      OPERATIONS.map((operation) => operation.operationId)
        .filter((operationId) => ![...notJson, 'sendMcpMessages'].includes(operationId))
        .sort(),
    );
    expect(names).to.include('importMedia');
  });

  it('are described by the summary and the description, and take the parameters by name and the JSON body as `body`', () => {
    const tools = contractTools(document, built);
    const getPost = tools.find(({ tool }) => tool.name === 'getPost')!.tool;
    expect(getPost.description).to.match(/^Get a post\. GET \/posts\/\{id\}\.\n\n/);
    expect(getPost.inputSchema)
      .to.include({ type: 'object', additionalProperties: false })
      .and.deep.include({ required: ['id'] });
    expect(getPost.annotations).to.include({ readOnlyHint: true });
    const createPost = tools.find(({ tool }) => tool.name === 'createPost')!.tool;
    expect(Object.keys(createPost.inputSchema.properties!)).to.have.members(['Idempotency-Key', 'body']);
    expect(createPost.inputSchema.required).to.deep.equal(['body']);
    expect((createPost.inputSchema.properties!.body as { oneOf: unknown[] }).oneOf).to.have.length(4);
  });

  it('have input schemas Ajv compiles, as the server checks each input before sending it', () => {
    for (const { tool } of contractTools(document, built)) {
      // The server's Ajv does not check a schema against the draft's meta-schema: this does.
      expect(bodyAjv().validateSchema(tool.inputSchema), `${tool.name}: ${bodyAjv().errorsText()}`).to.equal(true);
      expect(() => bodyAjv().compile(tool.inputSchema), tool.name).to.not.throw();
    }
  });

  it('come by area: the tags, which are exactly the areas /mcp?areas= takes', () => {
    const tags = (document.tags ?? []).map((tag) => areaOf(tag.name));
    expect(knownAreas(document)).to.deep.equal(tags);
    expect(new Set(contractTools(document, built).map((tool) => tool.area))).to.deep.equal(new Set(tags));
    expect(defaultAreas(document)).to.deep.equal(['accounts', 'publishing', 'messaging', 'analytics']);
  });

  it('mark unavailable exactly the operations the instance has not built, and say which are partly built', () => {
    const tools = contractTools(document, { operations: ['createPost'], partly: { getPost: 'short_video' } });
    const unavailable = tools.filter(({ tool }) => tool._meta?.['socialgate/unavailable']).map(({ tool }) => tool.name);
    expect(unavailable).to.deep.equal(['createPost']);
    const createPost = tools.find(({ tool }) => tool.name === 'createPost')!.tool;
    expect(createPost.title).to.equal('Create a post (unavailable)');
    expect(createPost.description).to.include('Unavailable in this instance. Not built yet: answers 501 `not_implemented`.');
    expect(tools.find(({ tool }) => tool.name === 'getPost')!.tool.description).to.include(
      'Partly built: answers 501 `not_implemented` for short_video.',
    );
  });

  it('follow what this build has not built (src/modules/index.ts decides)', () => {
    const unbuilt = { operations: unbuiltOperations(), partly: partlyBuiltOperations() };
    const unavailable = contractTools(document, unbuilt).filter(({ tool }) => tool._meta?.['socialgate/unavailable']);
    expect(unavailable.map(({ tool }) => tool.name).sort()).to.deep.equal(
      unbuilt.operations.filter((name) => name !== 'uploadMedia').sort(),
    );
  });
});
