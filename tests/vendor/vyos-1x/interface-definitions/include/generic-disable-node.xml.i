<!-- include start from generic-disable-node.xml.i -->
<leafNode name="disable">
  <properties>
    <help>Disable instance</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
