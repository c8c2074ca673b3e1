<!-- include start from interface/dhcp-options.xml.i -->
<leafNode name="no-default-route">
  <properties>
    <help>Do not install default route to system</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
