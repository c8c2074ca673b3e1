<!-- include start from interface/disable-forwarding.xml.i -->
<leafNode name="disable-forwarding">
  <properties>
    <help>Disable IP forwarding on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
