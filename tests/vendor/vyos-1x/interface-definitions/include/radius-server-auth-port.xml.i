<!-- include start from radius-server-auth-port.xml.i -->
#include <include/port-number.xml.i>
<leafNode name="port">
  <defaultValue>1812</defaultValue>
</leafNode>
<!-- include end -->
