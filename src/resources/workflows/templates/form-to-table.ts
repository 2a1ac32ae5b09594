import type { FlowTemplate } from './template.js';

/** A form post stored as a row of `user.submissions`, answered 201 with the row's id. */
export const formToTable: FlowTemplate = {
  name: 'form-to-table',
  summary: 'a webhook receiving a form post (name, email, message) that inserts a row into user.submissions and answers 201',
  config: () => ({
    nodes: [
      { id: 'webhook_trigger-1', type: 'webhook_trigger', label: 'Form post', config: { respondImmediately: false } },
      // A form-urlencoded (or JSON) body arrives parsed as `body`; a field the form leaves out stays empty.
      { id: 'table_insert-1', type: 'table_insert', label: 'Store the submission', config: { table: 'user.submissions', row: { name: '{{ body.name }}', email: '{{ body.email }}', message: '{{ body.message }}' } } },
      { id: 'respond-1', type: 'respond', label: 'Saved', config: { status: 201, body: { saved: true, id: '{{ $node.table_insert-1.data.id }}' } } },
    ],
    edges: [
      { id: 'e1', source: 'webhook_trigger-1', target: 'table_insert-1' },
      { id: 'e2', source: 'table_insert-1', target: 'respond-1' },
    ],
    variables: {},
    metadata: { description: 'Stores form posts in user.submissions' },
  }),
  next: [
    'weir data tables init user.submissions   # the table the rows go to',
    'weir workflows publish <flow>',
    "weir serve   # then point the form's action at the URL `weir workflows webhook-url <flow>` prints",
  ],
};
