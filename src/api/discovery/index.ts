/**
 * What the API says about itself (front door of src/api/discovery): the OpenAPI info block and the
 * reference page served at /.
 */
export { OPENAPI_INFO } from './openapi-info';
export { renderReferencePage } from './reference-page';
