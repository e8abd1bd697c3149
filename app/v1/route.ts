export { GET, POST, PUT, PATCH, DELETE } from "./[...path]/route";
